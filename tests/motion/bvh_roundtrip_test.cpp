// VMD → BVH → VMD on a generated humanoid and on the corpus pairs: the BVH's forward kinematics
// gives the evaluated bone heads back, and the motion read back from the BVH evaluates (IK on) to
// the same model-space bone rotations within 0.01° (issue 17; docs/BVH.md "Round trip").
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"
#include "support/corpus.hpp"

namespace mmdkit::motion {
namespace {

std::shared_ptr<const model::Model> humanoid() {
  pmx::GenerateOptions g;
  g.vertices = 0;
  g.morphs = 0;
  auto pmx = pmx::generate(g);
  EXPECT_TRUE(pmx);
  auto m = model::from_pmx(*pmx, {.geometry = false});
  EXPECT_TRUE(m);
  return std::make_shared<const model::Model>(std::move(*m));
}

void key(vmd::Motion& mo, const char* bone, std::uint32_t frame, std::array<float, 3> pos, std::array<float, 3> axis, float deg) {
  std::uint32_t idx = 0;
  for (; idx < mo.bone_names.size(); ++idx)
    if (mo.bone_names[idx].text == bone) break;
  if (idx == mo.bone_names.size()) {
    vmd::TrackName t;
    t.raw = *encode_text(bone, Encoding::cp932);
    t.text = bone;
    mo.bone_names.push_back(t);
  }
  const float n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const float h = deg * 3.14159265f / 360.0f;
  vmd::BoneKey k;
  k.name = idx;
  k.frame = frame;
  k.position = pos;
  k.rotation = {axis[0] / n * std::sin(h), axis[1] / n * std::sin(h), axis[2] / n * std::sin(h), std::cos(h)};
  k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve);
  mo.bone_keys.push_back(k);
}

// A dance-like motion over 40 frames: arms, spine, head, centre moving and bobbing, legs by IK.
vmd::Motion test_motion() {
  vmd::Motion mo;
  for (std::uint32_t f : {0u, 20u, 40u}) {
    const float s = f == 20 ? 1.0f : (f == 40 ? -0.5f : 0.0f);
    key(mo, "センター", f, {1.5f * s, -0.8f * std::abs(s), 0.7f * s}, {0, 1, 0}, 25 * s);
    key(mo, "上半身", f, {0, 0, 0}, {1, 0.3f, 0}, 20 * s);
    key(mo, "頭", f, {0, 0, 0}, {0, 1, 0.2f}, -30 * s);
    key(mo, "左腕", f, {0, 0, 0}, {0.2f, 0.5f, 1}, 50 * s + 10);
    key(mo, "左ひじ", f, {0, 0, 0}, {0, 1, 0}, -70 * std::abs(s));
    key(mo, "右腕", f, {0, 0, 0}, {1, 0, -1}, 40 * s);
    key(mo, "左足ＩＫ", f, {0.5f * s, 1.2f * std::abs(s), -1.0f * s}, {1, 0, 0}, 15 * s);
    key(mo, "右足ＩＫ", f, {-0.3f * s, 0, 0.8f * s}, {0, 1, 0}, 0);
    key(mo, "両目", f, {0, 0, 0}, {0, 1, 0}, 10 * s);  // 左目 / 右目 append it
  }
  return mo;
}

std::shared_ptr<const anim::CharacterData> bind_motion(std::shared_ptr<const model::Model> m, const vmd::Motion& mo) {
  anim::MotionInputs in;
  in.motions = {&mo};
  auto d = anim::CharacterData::create(std::move(m), in);
  EXPECT_TRUE(d) << d.error().to_string();
  return *d;
}

struct Compare {
  double rot_deg = 0, pos_units = 0;
  double ik_handle_units = 0;  // IK handle heads (skip_ik_handles)
};

// Largest model-space rotation (degrees) and head position difference of all bones, IK on.
Compare compare(std::shared_ptr<const anim::CharacterData> a, std::shared_ptr<const anim::CharacterData> b,
                std::uint32_t first, std::uint32_t last, std::uint32_t offset_b = 0, bool skip_ik_handles = true) {
  anim::Character ca(a), cb(b);
  Compare c;
  for (std::uint32_t f = first; f <= last; ++f) {
    EXPECT_TRUE(ca.evaluate(f));
    EXPECT_TRUE(cb.evaluate(f - first + offset_b));
    for (std::size_t i = 0; i < ca.pose().bone_count(); ++i) {
      bool under_ik = false;  // an IK handle or a bone hanging from one (PMD "足ＩＫ先")
      for (std::int32_t up = static_cast<std::int32_t>(i); up >= 0 && !under_ik; up = a->model().bones[static_cast<std::size_t>(up)].parent)
        under_ik = a->model().bones[static_cast<std::size_t>(up)].is_ik;
      if (skip_ik_handles && under_ik) {
        // IK handles are keyed where the feet are (not where an unreachable goal was)
        const auto& p = ca.pose().model_positions()[i];
        const auto& q = cb.pose().model_positions()[i];
        c.ik_handle_units = std::max(c.ik_handle_units, double(std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])));
        c.rot_deg = std::max(c.rot_deg, double(quat_angle_between(ca.pose().model_rotations()[i], cb.pose().model_rotations()[i])) *
                                            180.0 / 3.14159265358979);
        continue;
      }
      c.rot_deg = std::max(c.rot_deg, double(quat_angle_between(ca.pose().model_rotations()[i], cb.pose().model_rotations()[i])) *
                                          180.0 / 3.14159265358979);
      const auto& p = ca.pose().model_positions()[i];
      const auto& q = cb.pose().model_positions()[i];
      c.pos_units = std::max(c.pos_units, double(std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])));
    }
  }
  return c;
}

// FK of the BVH (after writing it as text and reading it back) against the evaluated heads.
double fk_error(const Bvh& bvh_in, std::shared_ptr<const anim::CharacterData> data, std::uint32_t first, double scale) {
  auto text = write_bvh(bvh_in);
  EXPECT_TRUE(text);
  auto bvh = read_bvh(*text);
  EXPECT_TRUE(bvh) << bvh.error().to_string();
  anim::Character ch(data);
  // joints are named as the bones: find each joint's bone
  const auto& bones = data->model().bones;
  std::vector<std::int32_t> bone_of(bvh->joints.size(), -1);
  for (std::size_t j = 0; j < bvh->joints.size(); ++j)
    for (std::size_t b = 0; b < bones.size(); ++b)
      if (bones[b].name == bvh->joints[j].name) bone_of[j] = static_cast<std::int32_t>(b);
  double worst = 0;
  std::vector<BvhTransform> w;
  for (std::uint32_t f = 0; f < bvh->frame_count; ++f) {
    EXPECT_TRUE(ch.evaluate(first + f));
    bvh_world_pose(*bvh, f, w);
    for (std::size_t j = 0; j < w.size(); ++j) {
      if (bone_of[j] < 0) continue;
      const auto& p = ch.pose().model_positions()[static_cast<std::size_t>(bone_of[j])];
      const double dx = w[j].translation[0] / scale - double(p[0]), dy = w[j].translation[1] / scale - double(p[1]),
                   dz = -w[j].translation[2] / scale - double(p[2]);
      worst = std::max(worst, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
  }
  return worst;
}

TEST(BvhExport, HierarchyChannelsAndFrameTime) {
  auto m = humanoid();
  const vmd::Motion mo = test_motion();
  auto bvh = bvh_from_character(bind_motion(m, mo), {.first_frame = 0, .last_frame = 40, .scale = 1.0, .ik = true});
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  EXPECT_EQ(bvh->joints.size(), m->bones.size());
  EXPECT_EQ(bvh->frame_count, 41u);
  EXPECT_DOUBLE_EQ(bvh->frame_time, 1.0 / 30.0);
  for (const BvhJoint& j : bvh->joints) {
    if (j.name == "センター" || j.name == "左足ＩＫ") {
      EXPECT_EQ(j.channels.size(), 6u) << j.name;  // moved joints get positions
    }
    if (j.name == "左ひじ") {
      EXPECT_EQ(j.channels.size(), 3u);
      EXPECT_EQ(j.channels[0], BvhChannel::z_rotation);
      EXPECT_EQ(j.channels[1], BvhChannel::x_rotation);
      EXPECT_EQ(j.channels[2], BvhChannel::y_rotation);
    }
  }
  // OFFSET = bind head − parent head, Z negated: 左ひじ − 左腕.
  const auto& b = m->bones;
  for (std::size_t j = 0; j < bvh->joints.size(); ++j) {
    if (bvh->joints[j].name != "左ひじ") continue;
    std::size_t e = 0, a = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (b[i].name == "左ひじ") e = i;
      if (b[i].name == "左腕") a = i;
    }
    EXPECT_NEAR(bvh->joints[j].offset[0], b[e].position[0] - b[a].position[0], 1e-6);
    EXPECT_NEAR(bvh->joints[j].offset[2], -(b[e].position[2] - b[a].position[2]), 1e-6);
  }
}

TEST(BvhExport, ForwardKinematicsGivesTheEvaluatedHeads) {
  auto m = humanoid();
  const vmd::Motion mo = test_motion();
  auto data = bind_motion(m, mo);
  for (double scale : {1.0, 0.08, 12.5}) {
    auto bvh = bvh_from_character(data, {.first_frame = 0, .last_frame = 40, .scale = scale, .ik = true});
    ASSERT_TRUE(bvh);
    EXPECT_LT(fk_error(*bvh, data, 0, scale), 1e-5) << scale;
  }
}

TEST(BvhRoundTrip, GeneratedHumanoidWithinAHundredthOfADegree) {
  auto m = humanoid();
  const vmd::Motion mo = test_motion();
  auto data = bind_motion(m, mo);
  auto bvh = bvh_from_character(data, {.first_frame = 0, .last_frame = 40, .scale = 1.0, .ik = true});
  ASSERT_TRUE(bvh);
  auto text = write_bvh(*bvh);
  auto back = read_bvh(*text);
  ASSERT_TRUE(back);
  auto map = automatic_bvh_bone_map(*back, *m);
  ASSERT_TRUE(map);
  EXPECT_EQ(map->source, "identity");
  BvhImportReport rep;
  auto vmd = bvh_to_vmd(*back, m, *map, {}, &rep);
  ASSERT_TRUE(vmd) << vmd.error().to_string();
  EXPECT_GT(rep.ik_bones, 0u);
  const Compare c = compare(data, bind_motion(m, *vmd), 0, 40);
  std::cout << "generated humanoid VMD->BVH->VMD: max bone rotation error " << c.rot_deg << " deg, head position "
            << c.pos_units << " units (IK handles " << c.ik_handle_units << "), keys " << vmd->bone_keys.size() << " (" << rep.keys_dropped << " reduced)\n";
  EXPECT_LT(c.rot_deg, 0.01);
  EXPECT_LT(c.pos_units, 1e-3);
}

TEST(BvhRoundTrip, WithoutLegIkTheIkIsSwitchedOff) {
  auto m = humanoid();
  const vmd::Motion mo = test_motion();
  auto data = bind_motion(m, mo);
  auto bvh = bvh_from_character(data, {.first_frame = 0, .last_frame = 40, .scale = 1.0, .ik = true});
  ASSERT_TRUE(bvh);
  auto map = automatic_bvh_bone_map(*bvh, *m);
  BvhImportOptions o;
  o.leg_ik = false;
  auto vmd = bvh_to_vmd(*bvh, m, *map, o);
  ASSERT_TRUE(vmd);
  ASSERT_EQ(vmd->property_keys.size(), 1u);
  for (const auto& st : vmd->property_keys[0].ik) EXPECT_EQ(st.enabled, 0);
  const Compare c = compare(data, bind_motion(m, *vmd), 0, 40, 0, false);  // IK handles keyed as the BVH says
  EXPECT_LT(c.rot_deg, 0.01);
  EXPECT_LT(c.pos_units, 1e-3);
}

// A T-pose source with other names (Mixamo) onto the humanoid (A-pose arms): the model's limbs
// take the source's directions — at the source's T-pose the model's arms are horizontal too, not
// 35° lower as copying the rotations would make them (the A-pose correction).
TEST(BvhRetarget, MixamoTPoseArmsFollowTheSourceDirections) {
  const char* text =
      "HIERARCHY\nROOT mixamorig:Hips\n{\n OFFSET 0 100 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
      " JOINT mixamorig:Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  JOINT mixamorig:LeftArm\n  {\n   OFFSET 15 30 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT mixamorig:LeftForeArm\n   {\n    OFFSET 28 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 25 0 0\n    }\n   }\n  }\n"
      "  JOINT mixamorig:RightArm\n  {\n   OFFSET -15 30 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT mixamorig:RightForeArm\n   {\n    OFFSET -28 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET -25 0 0\n    }\n   }\n  }\n }\n"
      " JOINT mixamorig:LeftUpLeg\n {\n  OFFSET 9 -5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  JOINT mixamorig:LeftLeg\n  {\n   OFFSET 0 -45 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT mixamorig:LeftFoot\n   {\n    OFFSET 0 -45 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 -5 10\n    }\n   }\n  }\n }\n"
      " JOINT mixamorig:RightUpLeg\n {\n  OFFSET -9 -5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  JOINT mixamorig:RightLeg\n  {\n   OFFSET 0 -45 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT mixamorig:RightFoot\n   {\n    OFFSET 0 -45 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 -5 10\n    }\n   }\n  }\n }\n}\n"
      "MOTION\nFrames: 2\nFrame Time: 0.0333333\n"
      "0 0 0 0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n"
      "0 0 0 0 0 0  0 0 0  -90 0 0  0 0 0  90 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0\n";
  auto bvh = read_bvh(text);
  ASSERT_TRUE(bvh) << bvh.error().to_string();
  auto m = humanoid();
  auto map = automatic_bvh_bone_map(*bvh, *m);
  ASSERT_TRUE(map) << map.error().to_string();
  EXPECT_EQ(map->source, "mixamo");
  BvhImportReport rep;
  auto vmd = bvh_to_vmd(*bvh, m, *map, {}, &rep);
  ASSERT_TRUE(vmd) << vmd.error().to_string();
  // scale = source leg (90) / model leg
  std::size_t a = 0, k = 0, f = 0, arm = 0, elbow = 0;
  for (std::size_t i = 0; i < m->bones.size(); ++i) {
    if (m->bones[i].name == "左足") a = i;
    if (m->bones[i].name == "左ひざ") k = i;
    if (m->bones[i].name == "左足首") f = i;
    if (m->bones[i].name == "左腕") arm = i;
    if (m->bones[i].name == "左ひじ") elbow = i;
  }
  auto len = [&](std::size_t x, std::size_t y) {
    const auto& p = m->bones[x].position;
    const auto& q = m->bones[y].position;
    return double(std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
  };
  EXPECT_NEAR(rep.scale, 90.0 / (len(a, k) + len(k, f)), 1e-4);
  auto data = bind_motion(m, *vmd);
  anim::Character ch(data);
  // Frame 0 = the source's T-pose: the model stands in its own rest pose (arm direction unchanged).
  ASSERT_TRUE(ch.evaluate(0));
  const auto& pos = ch.pose().model_positions();
  auto dir = [&](std::size_t x, std::size_t y, const auto& p) {
    const double d[3] = {double(p[y][0] - p[x][0]), double(p[y][1] - p[x][1]), double(p[y][2] - p[x][2])};
    const double n = std::hypot(d[0], d[1], d[2]);
    return std::array<double, 3>{d[0] / n, d[1] / n, d[2] / n};
  };
  std::vector<Vec3> rest(m->bones.size());
  for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = m->bones[i].position;
  const auto d0 = dir(arm, elbow, pos), r0 = dir(arm, elbow, rest);
  EXPECT_LT(r0[1], -0.3);  // the model's rest arm points down (A-pose)
  EXPECT_NEAR(d0[0], 1.0, 1e-4);  // the source's T-pose: horizontal, along +X (the left side)
  EXPECT_NEAR(d0[1], 0.0, 1e-4);
  // Frame 1: the source's left arm turned down by 90° about Z (hanging): the model's arm hangs too.
  ASSERT_TRUE(ch.evaluate(1));
  const auto d1 = dir(arm, elbow, ch.pose().model_positions());
  EXPECT_NEAR(d1[1], -1.0, 1e-3);
}

// The corpus pairs: miku_v2 + wavefile_v2, Mei + MMDAgent motions.
struct Pair {
  const char* model;
  const char* motion;
  std::uint32_t first, last;
};

TEST(BvhRoundTrip, CorpusPairsWithinAHundredthOfADegree) {
  MMDKIT_REQUIRE_CORPUS();
  const Pair pairs[] = {
      {"jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
       "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd", 0, 0},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd", 0, 0},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_guide/mei_guide_happy.vmd", 0, 0},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_self_introduction/mei_self_introduction.vmd", 0, 0},
  };
  for (const Pair& p : pairs) {
    auto mf = test::corpus_file(p.model);
    auto vf = test::corpus_file(p.motion);
    if (!mf || !vf) continue;
    std::vector<Warning> w;
    auto mm = anim::read_model_file(mf->path, {.encoding = {}, .geometry = false}, w);
    ASSERT_TRUE(mm);
    auto m = std::make_shared<const model::Model>(std::move(*mm));
    auto mo = anim::read_motion_file(vf->path, {}, w);
    ASSERT_TRUE(mo && mo->motion);
    auto data = bind_motion(m, *mo->motion);
    const std::uint32_t last = p.last ? p.last : data->last_frame();
    auto bvh = bvh_from_character(data, {.first_frame = p.first, .last_frame = last, .scale = 1.0, .ik = true});
    ASSERT_TRUE(bvh);
    EXPECT_LT(fk_error(*bvh, data, p.first, 1.0), 1e-4) << p.motion;
    auto text = write_bvh(*bvh);
    auto back = read_bvh(*text);
    ASSERT_TRUE(back);
    auto map = automatic_bvh_bone_map(*back, *m);
    ASSERT_TRUE(map);
    BvhImportReport rep;
    BvhImportOptions o;
    o.first_frame = p.first;
    auto vmd = bvh_to_vmd(*back, m, *map, o, &rep);
    ASSERT_TRUE(vmd) << vmd.error().to_string();
    const Compare c = compare(data, bind_motion(m, *vmd), p.first, last, p.first);
    std::cout << p.motion << " frames " << p.first << "-" << last << ": max bone rotation error " << c.rot_deg
              << " deg, head position " << c.pos_units << " units (IK handles " << c.ik_handle_units << ", fit " << rep.fit_deg << " deg), keys "
              << vmd->bone_keys.size() << " (" << rep.keys_dropped << " reduced)\n";
    EXPECT_LT(c.rot_deg, 0.01) << p.motion;
    EXPECT_LT(c.pos_units, 1e-3) << p.motion;
  }
}

}  // namespace
}  // namespace mmdkit::motion
