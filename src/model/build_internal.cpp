// mmdkit — helpers shared by the view builders and check.
#include "build_internal.hpp"

#include <algorithm>
#include <numeric>

namespace mmdkit::model::detail {

void build_faces(Model& m, const std::vector<std::uint32_t>& raw, const std::vector<std::uint32_t>& counts,
                 const char* faces_section, const char* materials_section) {
  const std::size_t total = raw.size();
  const std::size_t usable = total - total % 3;
  const std::size_t nv = m.vertices.size();
  if (total % 3 != 0)
    add(m.findings, FindingKind::face_count_not_triangles, faces_section, -1, "count",
        std::to_string(total) + " face indices is not a multiple of 3; the last " + std::to_string(total % 3) +
            " are ignored");
  std::uint64_t sum = 0;
  for (std::uint32_t c : counts) sum += c;
  if (sum != total)
    add(m.findings, FindingKind::material_face_sum, materials_section, -1, "face_count",
        "material face counts sum to " + std::to_string(sum) + ", the model has " + std::to_string(total) +
            " face indices");
  m.faces.clear();
  m.faces.reserve(usable);
  auto take = [&](std::size_t begin, std::size_t end) {  // triangles [begin, end) of raw, end <= usable
    for (std::size_t t = begin; t + 3 <= end; t += 3) {
      bool ok = true;
      for (std::size_t k = 0; k < 3; ++k) {
        if (raw[t + k] >= nv) {
          ok = false;
          add(m.findings, FindingKind::index_out_of_range, faces_section, static_cast<std::int64_t>(t / 3),
              "vertex " + std::to_string(k),
              out_of_range(raw[t + k], nv, "vertices") + "; the triangle is dropped");
        }
      }
      if (ok) m.faces.insert(m.faces.end(), raw.begin() + static_cast<std::ptrdiff_t>(t),
                             raw.begin() + static_cast<std::ptrdiff_t>(t + 3));
    }
  };
  std::size_t pos = 0;
  for (std::size_t i = 0; i < m.materials.size() && i < counts.size(); ++i) {
    Material& mat = m.materials[i];
    const std::uint32_t c = counts[i];
    if (c % 3 != 0)
      add(m.findings, FindingKind::face_count_not_triangles, materials_section, static_cast<std::int64_t>(i),
          "face_count", std::to_string(c) + " face indices is not a multiple of 3");
    std::size_t begin = std::min(pos, usable);
    std::size_t end = std::min(pos + static_cast<std::size_t>(c), usable);
    mat.first_index = static_cast<std::uint32_t>(m.faces.size());
    take(begin, end);
    mat.index_count = static_cast<std::uint32_t>(m.faces.size() - mat.first_index);
    pos += c;
  }
  if (pos < usable) take(pos, usable);  // faces no material draws: kept after the last range
}

void break_parent_loops(Model& m, const char* section) {
  const std::size_t n = m.bones.size();
  std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the current path, 2 done
  std::vector<std::size_t> path;
  for (std::size_t i = 0; i < n; ++i) {
    if (state[i]) continue;
    path.clear();
    std::size_t c = i;
    for (;;) {
      state[c] = 1;
      path.push_back(c);
      std::int32_t p = m.bones[c].parent;
      if (p < 0) break;
      auto pu = static_cast<std::size_t>(p);
      if (state[pu] == 2) break;
      if (state[pu] == 1) {  // c's parent closes a loop
        add(m.findings, FindingKind::bone_parent_loop, section, static_cast<std::int64_t>(c), "parent",
            pu == c ? "bone is its own parent; parent set to none"
                    : "parent " + std::to_string(p) + " leads back to this bone; parent set to none");
        m.bones[c].parent = -1;
        break;
      }
      c = pu;
    }
    for (std::size_t b : path) state[b] = 2;
  }
}

std::vector<std::int32_t> pmd_layers(const Model& m) {
  const std::size_t n = m.bones.size();
  std::vector<std::int32_t> layer(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (m.bones[i].is_ik) layer[i] = 1;
    if (m.bones[i].append_rotation || m.bones[i].append_translation) layer[i] = 2;
  }
  // Descendants inherit a higher parent layer (parents are loop-free in the view).
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::size_t> path;
  for (std::size_t i = 0; i < n; ++i) {
    path.clear();
    std::size_t c = i;
    while (!done[c]) {
      path.push_back(c);
      std::int32_t p = m.bones[c].parent;
      if (p < 0) break;
      c = static_cast<std::size_t>(p);
    }
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      std::int32_t p = m.bones[*it].parent;
      if (p >= 0) layer[*it] = std::max(layer[*it], layer[static_cast<std::size_t>(p)]);
      done[*it] = 1;
    }
  }
  return layer;
}

void compute_bone_order(Model& m) {
  m.bone_order.resize(m.bones.size());
  std::iota(m.bone_order.begin(), m.bone_order.end(), 0);
  if (m.transform_order == TransformOrder::pmd) {
    std::vector<std::int32_t> layer = pmd_layers(m);
    std::stable_sort(m.bone_order.begin(), m.bone_order.end(), [&](std::int32_t a, std::int32_t b) {
      return layer[static_cast<std::size_t>(a)] < layer[static_cast<std::size_t>(b)];
    });
    return;
  }
  std::stable_sort(m.bone_order.begin(), m.bone_order.end(), [&](std::int32_t a, std::int32_t b) {
    const Bone& x = m.bones[static_cast<std::size_t>(a)];
    const Bone& y = m.bones[static_cast<std::size_t>(b)];
    if (x.after_physics != y.after_physics) return !x.after_physics;
    return x.deform_layer < y.deform_layer;
  });
}

void check_ik_ancestry(const Model& m, std::vector<Finding>& out, bool pmd) {
  // Euler tour of the (loop-free) bone forest: a is a proper ancestor of b iff
  // tin[a] < tin[b] and tout[b] <= tout[a]. O(bones) once, O(1) per link.
  const std::size_t n = m.bones.size();
  std::vector<std::int32_t> first_child(n, -1), next_sibling(n, -1);
  for (std::size_t i = n; i-- > 0;) {
    std::int32_t p = m.bones[i].parent;
    if (p < 0) continue;
    next_sibling[i] = first_child[static_cast<std::size_t>(p)];
    first_child[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(i);
  }
  std::vector<std::uint32_t> tin(n, 0), tout(n, 0);
  std::uint32_t clock = 0;
  std::vector<std::int32_t> stack;
  for (std::size_t r = 0; r < n; ++r) {
    if (m.bones[r].parent >= 0) continue;
    stack.push_back(static_cast<std::int32_t>(r));
    tin[r] = ++clock;
    while (!stack.empty()) {
      auto top = static_cast<std::size_t>(stack.back());
      std::int32_t c = first_child[top];
      if (c >= 0) {
        first_child[top] = next_sibling[static_cast<std::size_t>(c)];  // consume the edge
        tin[static_cast<std::size_t>(c)] = ++clock;
        stack.push_back(c);
      } else {
        tout[top] = ++clock;
        stack.pop_back();
      }
    }
  }
  auto is_ancestor = [&](std::int32_t a, std::int32_t b) {
    auto x = static_cast<std::size_t>(a), y = static_cast<std::size_t>(b);
    return tin[x] < tin[y] && tout[y] <= tout[x];
  };
  for (const IkChain& c : m.ik_chains) {
    for (std::size_t k = 0; k < c.links.size(); ++k) {
      if (is_ancestor(c.links[k].bone, c.effector)) continue;
      const bool self = c.links[k].bone == c.effector;  // rotating the effector about itself: no effect
      add(out, FindingKind::ik_link_not_ancestor, pmd ? "ik chains" : "bones", c.source_index,
          pmd ? "links[" + std::to_string(k) + "]" : "ik_links[" + std::to_string(k) + "].bone",
          self ? "link bone " + std::to_string(c.links[k].bone) +
                     " is the effector itself (rotating it cannot move the effector; no effect)"
               : "link bone " + std::to_string(c.links[k].bone) + " is not an ancestor of the effector " +
                     std::to_string(c.effector) +
                     " (MMD keeps such a link: the solver rotates it, but that cannot move the effector)",
          // A warning, as MMD uses such models (e.g. mokou_A.pmd) and so does the skeleton
          // (anim/skeleton.hpp build_skeleton): the link takes part without moving the effector.
          Severity::warning);
    }
  }
}

void utf8_binding_keys(Model& m) {
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    auto k = binding_key_of_text(m.bones[i].name);
    if (k) {
      m.bones[i].binding_key = std::move(*k);
    } else {
      add(m.findings, FindingKind::name_not_cp932, "bones", static_cast<std::int64_t>(i), "name",
          "name '" + m.bones[i].name + "' has no CP932 form: VMD bone tracks cannot drive this bone",
          Severity::warning);
    }
  }
  for (std::size_t i = 0; i < m.morphs.size(); ++i) {
    auto k = binding_key_of_text(m.morphs[i].name);
    if (k) {
      m.morphs[i].binding_key = std::move(*k);
    } else {
      add(m.findings, FindingKind::name_not_cp932, "morphs", static_cast<std::int64_t>(i), "name",
          "name '" + m.morphs[i].name + "' has no CP932 form: VMD morph tracks cannot drive this morph",
          Severity::warning);
    }
  }
}

}  // namespace mmdkit::model::detail
