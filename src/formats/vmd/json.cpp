// mmdkit — VMD ⇄ JSON (stub; real implementation follows).
#include "mmdkit/formats/vmd_json.hpp"

namespace mmdkit::vmd {

std::string to_json(const Motion& /*motion*/, const JsonWriteOptions& /*options*/) { return {}; }

Result<Motion> from_json(std::string_view /*text*/) {
  return make_error(ErrorCode::unsupported, "VMD JSON import is not implemented yet", "json");
}

}  // namespace mmdkit::vmd
