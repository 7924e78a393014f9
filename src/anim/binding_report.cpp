// mmdkit — the wording of a binding report's unmatched tracks (character.hpp unmatched_messages).
#include <string>
#include <vector>

#include "mmdkit/anim/character.hpp"

namespace mmdkit::anim {

std::vector<std::string> unmatched_messages(const BindingReport& report, std::span<const std::string> inputs,
                                            std::size_t names) {
  // report.unmatched is sorted input by input, bones before morphs: one line per run of the same
  // input and kind, the input named once at its start (as every message about one file).
  std::vector<std::string> out;
  const std::vector<BindingReport::Track>& u = report.unmatched;
  for (std::size_t i = 0; i < u.size();) {
    std::size_t j = i;
    while (j < u.size() && u[j].input == u[i].input && u[j].morph == u[i].morph) ++j;
    const std::size_t n = j - i;
    const bool morph = u[i].morph;
    const bool named = u[i].input < inputs.size();
    std::string line = named ? inputs[u[i].input] + ": " : std::string();
    line += std::to_string(n) + (morph ? " morph" : " bone") + (n == 1 ? " track" : " tracks") +
            (named ? " of the motion" : " of the motions") + " match" + (n == 1 ? "es" : "") + " no " +
            (morph ? "morph" : "bone") + " of the model and " + (n == 1 ? "is" : "are") + " ignored:";
    for (std::size_t k = i; k < j; ++k) {
      if (k - i == names) {
        line += ", ...";
        break;
      }
      line += (k == i ? " '" : ", '") + u[k].name + "'";
    }
    out.push_back(std::move(line));
    i = j;
  }
  return out;
}

}  // namespace mmdkit::anim
