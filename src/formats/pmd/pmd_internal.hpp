// mmdkit — PMD internals shared by reader, writer and JSON (not installed).
#pragma once

#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::pmd {

// Section names used in errors and warnings (Error::section).
inline constexpr const char* kSecHeader = "header";
inline constexpr const char* kSecVertices = "vertices";
inline constexpr const char* kSecFaces = "faces";
inline constexpr const char* kSecMaterials = "materials";
inline constexpr const char* kSecBones = "bones";
inline constexpr const char* kSecIk = "ik chains";
inline constexpr const char* kSecMorphs = "morphs";
inline constexpr const char* kSecMorphDisplay = "morph display";
inline constexpr const char* kSecBoneFrames = "bone frames";
inline constexpr const char* kSecBoneDisplay = "bone display";
inline constexpr const char* kSecEnglish = "english";
inline constexpr const char* kSecToon = "toon textures";
inline constexpr const char* kSecRigidBodies = "rigid bodies";
inline constexpr const char* kSecJoints = "joints";
inline constexpr const char* kSecTrailing = "trailing";

/// Encoding chosen by detect_legacy_encoding over the model's legacy names (raw bytes).
Encoding detect_encoding(const Model& m);
/// Fills every FixedText::text from its raw bytes in m.encoding.
void decode_all_text(Model& m);

}  // namespace mmdkit::pmd
