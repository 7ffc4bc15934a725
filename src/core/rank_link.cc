#include "core/rank_link.h"

#include "core/error.h"

namespace lossless {
namespace {

RankLinkOpener& opener() {
  static RankLinkOpener o = nullptr;
  return o;
}

}  // namespace

bool register_rank_link(RankLinkOpener o) {
  opener() = o;
  return true;
}

bool rank_link_available() { return opener() != nullptr; }

std::unique_ptr<RankLink> open_rank_link(int& argc, char**& argv) {
  return opener() ? opener()(argc, argv) : nullptr;
}

void on_every_rank(RankLink* link, const std::function<void()>& step) {
  if (!link) {
    step();
    return;
  }
  std::uint64_t status = 0;
  std::string message;
  try {
    step();
  } catch (const ConfigError& e) {
    status = 2;
    message = e.what();
  } catch (const std::exception& e) {
    status = 1;
    message = e.what();
  }
  std::uint64_t worst[1] = {status};
  link->all_max(worst);
  if (worst[0] == 0) return;
  // Rank 0 learns the message of the lowest rank that failed with the worst status.
  RankMessage mine;
  if (status == worst[0]) {
    const std::string marked = "!" + message;  // a marker: an empty message is still a failure
    mine.assign(marked.begin(), marked.end());
  }
  const std::vector<RankMessage> all = link->gather(mine);
  std::string shown;
  for (const RankMessage& m : all)
    if (!m.empty()) {
      shown.assign(m.begin() + 1, m.end());
      break;
    }
  throw RanksFailed(static_cast<int>(worst[0]), shown, worst[0] == 2);
}

}  // namespace lossless
