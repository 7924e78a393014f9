// A small BVH text shared by the BVH reader tests (tests/motion) and the BVH CLI tests (tests/cli):
// a root "Hips" (6 channels, Z X Y rotation order) with one child "Left Arm" (3 channels) and an
// end site; 2 frames at 1/30 s. 20 lines; frame 0 is line 19, frame 1 line 20.
#pragma once

namespace mmdkit::test {

inline constexpr const char* kTwoJointBvh =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "  OFFSET 0 10 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT Left Arm\n"
    "  {\n"
    "    OFFSET 2 0 0\n"
    "    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    End Site\n"
    "    {\n"
    "      OFFSET 3 0 0\n"
    "    }\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 2\n"
    "Frame Time: 0.0333333\n"
    "0 0 0 0 0 0 0 0 0\n"
    "1 2 3 90 0 0 0 0 90\n";

}  // namespace mmdkit::test
