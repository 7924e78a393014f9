// mmdkit — the wording of a binding report's unmatched tracks (character.hpp unmatched_messages).
#include <string>
#include <vector>

#include "mmdkit/anim/character.hpp"

namespace mmdkit::anim {

std::vector<std::string> unmatched_messages(const BindingReport& report, std::span<const std::string> inputs,
                                            std::size_t names) {
  std::vector<std::string> out;
  for (bool morph : {false, true}) {
    const std::size_t n = morph ? report.unmatched_morphs : report.unmatched_bones;
    if (n == 0) continue;
    std::string line = std::to_string(n) + (morph ? " morph" : " bone") + (n == 1 ? " track" : " tracks") +
                       " of the motions match" + (n == 1 ? "es" : "") + " no " + (morph ? "morph" : "bone") +
                       " of the model and " + (n == 1 ? "is" : "are") + " ignored:";
    std::size_t shown = 0;
    for (const BindingReport::Track& t : report.unmatched) {
      if (t.morph != morph) continue;
      if (shown == names) {
        line += ", ...";
        break;
      }
      line += (shown ? ", '" : " '") + t.name + "'";
      if (t.input < inputs.size()) line += " (" + inputs[t.input] + ")";
      ++shown;
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace mmdkit::anim
