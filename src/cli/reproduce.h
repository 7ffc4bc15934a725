// `lossless reproduce PAPER|all`: runs a paper's experiment script (experiments/<folder>/run.py, the protocol
// of experiments/README.md) and turns its results.json into report.html + report.md (tools/report.py).
#pragma once

namespace lossless {

// argv[1] is "reproduce". Returns the exit status (0; 2 bad arguments, an unknown paper or a failed case;
// 1 an internal error); throws ConfigError for bad arguments.
int cmd_reproduce(int argc, char** argv);

}  // namespace lossless
