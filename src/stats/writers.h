// Every output file of a run (DESIGN.md §5) is written here: the run's own files and the HPCC simulator's
// formats. Each throws ConfigError naming the file when it cannot be written completely.
#pragma once
#include <string>
#include <vector>

#include "net/net_counters.h"
#include "stats/run_result.h"

namespace lossless {

class Network;
class CcFactory;
struct Topology;

void write_summary_json(const RunResult& r, const std::string& path);
// `flow_id,src,dst,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown` (empty finish when
// unfinished).
void write_fct_csv(const Network& net, const std::string& path);
// `time_ns,node,port,priority,event,quanta,kind`, logged where the frame was received; kind = who sent it
// (net/pause_kinds.h: standard, or a flow-control policy's own kind such as predictive or capfc).
void write_pfc_csv(const Topology& topo, const std::vector<PfcLogRecord>& log, const std::string& path);
// The HPCC simulator's FCT file: `sip dip sport dport size start_ns fct_ns standalone_fct_ns`.
void write_hpcc_fct(const Network& net, const std::string& path);
// The HPCC simulator's PFC file: `time_ns node_id node_type if_index type`.
void write_hpcc_pfc(const Topology& topo, const std::vector<PfcLogRecord>& log, const std::string& path);
// The trace CSV of the switch scheme, when it keeps one (`<scheme>.csv`); false when it keeps none.
bool write_mechanism_trace(const Network& net, const std::string& path);
// The congestion control's per-flow trace, when its parameters ask for one (CcFactory::trace_header): one row
// per flow in flow-id order; false when it keeps none.
bool write_cc_trace(const Network& net, const CcFactory& cc, const std::string& path);
void write_text(const std::string& path, const std::string& text);

}  // namespace lossless
