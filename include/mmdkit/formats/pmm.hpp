// mmdkit — PMM (MikuMikuDance project, "Polygon Movie maker" 0001 / 0002): data model, reading
// and writing.
//
// Layout and sources: docs/formats/pmm.md (written from nanoem's reader, hkrn/nanoem
// nanoem/ext/document.c and document_p.h, checked against oigami/PMMEditor's PmmReader.cs and
// magicien/MMDSceneKit's MMDPMMReader.swift, and against MMD's bundled sample project). No
// official specification exists; field names follow what those readers and MMD's UI call them.
//
// Units: frames (30 per second, whatever `preferred_fps` says: it is the playback setting), MMD
// units (about 8 cm), radians for camera and accessory Euler angles, quaternions (x, y, z, w)
// for bone rotations, MMD's left-handed Y-up space (docs/CONVENTIONS.md). Text is CP932 (GBK on
// Chinese systems: detected as for PMD/VMD, ReadOptions::encoding overrides).
//
// Reading keeps every byte: flags are kept as the stored byte (not bool), names keep their raw
// bytes (garbage after the NUL included), version 1's tail (not interpreted) and any bytes after
// the last section are kept, so write(read(x)) == x byte for byte.
//
// Keyframes: every track (bone, morph, model, camera, light, accessory, gravity, self-shadow) has
// one *initial* key (frame 0, stored without an index: its id is its position, i.e. the bone or
// morph index for bone and morph keys, 0 for the others) and *regular* keys, each with its own id
// (`index`). `previous` / `next` are ids of the neighbouring keys of the same track (0 = none):
// the lists are linked, not sorted; a regular key's track is found by following `previous` back
// to an initial key (nanoem, PMMEditor).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::pmm {

// Field sizes in bytes (docs/formats/pmm.md).
inline constexpr std::size_t kSignatureSize = 30;      ///< "Polygon Movie maker 000N", NUL-padded
inline constexpr std::size_t kPathSize = 256;          ///< model, accessory, audio, background paths
inline constexpr std::size_t kAccessoryNameSize = 100; ///< accessory names
inline constexpr std::size_t kModelNameSizeV1 = 20;    ///< version 1 model names
inline constexpr std::size_t kMatrixSize = 16;         ///< floats of the version 2 matrix

/// File version, from the signature.
enum class Version : std::uint8_t {
  v1 = 1,  ///< "Polygon Movie maker 0001" (MMD 7.x / early 8.x): no bone / morph name lists
  v2 = 2,  ///< "Polygon Movie maker 0002" (MMD 9.x, late 8.x)
};

using Path = FixedText<kPathSize>;
using AccessoryName = FixedText<kAccessoryNameSize>;
using ModelNameV1 = FixedText<kModelNameSizeV1>;

/// The link fields every keyframe has (nanoem `nanoem_document_base_keyframe_t`).
struct KeyLink {
  std::int32_t index = 0;     ///< this key's id (regular keys only; initial keys store none)
  std::int32_t frame = 0;     ///< frame number (30 fps)
  std::int32_t previous = 0;  ///< id of the previous key of the track, 0 = none
  std::int32_t next = 0;      ///< id of the next key of the track, 0 = none
};

/// A bone keyframe: 57 bytes (v1) / 58 (v2) initial, +4 regular.
struct BoneKey : KeyLink {
  /// Four Bezier curves on MMD's 0..127 grid, each (x1, y1, x2, y2): X, Y, Z, rotation
  /// (not VMD's 64-byte block: 16 plain bytes).
  std::array<std::uint8_t, 16> interpolation{20, 20, 107, 107, 20, 20, 107, 107,
                                             20, 20, 107, 107, 20, 20, 107, 107};
  std::array<float, 3> translation{};         ///< from the bind pose, parent space, MMD units
  std::array<float, 4> orientation{0, 0, 0, 1};  ///< quaternion x, y, z, w as stored
  std::uint8_t selected = 0;                  ///< 1 = selected in the timeline
  std::uint8_t physics_disabled = 0;          ///< v2 only: 1 = physics off from this key
};

/// A morph keyframe: 17 bytes initial, 21 regular.
struct MorphKey : KeyLink {
  float weight = 0;  ///< usually 0..1
  std::uint8_t selected = 0;
};

/// An outside parent (外部親): the bone of another model (or -1 = none / the ground).
struct OutsideParent {
  std::int32_t model = -1;  ///< model index in Document::models, -1 = none
  std::int32_t bone = -1;   ///< bone index in that model, -1 = none
};

/// A model ("display / IK / outside parent") keyframe: 14 + IK bones (+ 8 × outside-parent
/// bones in v2) bytes initial, +4 regular.
struct ModelKey : KeyLink {
  std::uint8_t visible = 1;
  std::vector<std::uint8_t> ik_enabled;        ///< one byte per IK bone (Model::ik_bones order): 1 on
  std::vector<OutsideParent> outside_parents;  ///< v2: one per Model::outside_parent_bones entry
  std::uint8_t selected = 0;
};

/// The current (unkeyed) pose of one bone: 34 bytes (v1) / 31 (v2).
struct BoneState {
  std::array<float, 3> translation{};
  std::array<float, 4> orientation{0, 0, 0, 1};
  std::int32_t v1_unknown = 0;        ///< v1 only: 4 bytes of unknown meaning (nanoem skips them)
  std::uint8_t dirty = 0;             ///< 1 = edited but not keyed
  std::uint8_t physics_disabled = 0;  ///< v2 only
  std::uint8_t tracks_selected = 0;   ///< v1: nanoem's name; meaning unclear
};

/// The current outside-parent setting of one outside-parent bone (v2, 16 bytes).
struct OutsideParentState {
  std::int32_t begin = 0;  ///< first frame of the range it applies to
  std::int32_t end = 0;    ///< last frame
  OutsideParent parent;
};

/// A model of the project.
struct Model {
  std::uint8_t index = 0;       ///< the model's number as stored (its position in the list)
  EncodedText name;             ///< v2: u8-length name; v1: 20-byte field
  EncodedText name_en;          ///< v2 only: u8-length English name
  Path path;                    ///< model file as saved (absolute Windows path, or relative)
  std::uint8_t fixed_tracks = 0;  ///< v2 only: rows fixed at the top of the timeline (nanoem num_fixed_tracks)
  std::vector<EncodedText> bone_names;   ///< v2 only: the model's bones, in model order
  std::vector<EncodedText> morph_names;  ///< v2 only: the model's morphs
  std::vector<std::int32_t> ik_bones;    ///< v2 only: bone index of each IK bone
  /// v2 only: bones that can take an outside parent; -1 = the whole model (MMD's projects list it
  /// first, every model of the corpus sample does).
  std::vector<std::int32_t> outside_parent_bones;
  std::uint8_t draw_order = 0;      ///< drawing order (0 = first)
  std::uint8_t visible = 1;
  std::int32_t selected_bone = 0;   ///< bone selected in the UI
  /// Morph selected per facial panel: brow, eye, lip, other (-1 = none); the corpus's t.pmm has
  /// 真面目, まばたき, あ, none.
  std::array<std::int32_t, 4> selected_morphs{};
  std::vector<std::uint8_t> expanded_frames;      ///< per display frame: expanded in the timeline (u8 count)
  std::int32_t vertical_scroll = 0;
  std::int32_t last_frame = 0;      ///< last keyed frame as MMD saw it
  std::vector<BoneKey> initial_bone_keys;   ///< one per bone (its frame-0 key), bone order
  std::vector<BoneKey> bone_keys;           ///< regular keys (i32 count)
  std::vector<MorphKey> initial_morph_keys; ///< one per morph
  std::vector<MorphKey> morph_keys;
  ModelKey initial_model_key;
  std::vector<ModelKey> model_keys;
  std::vector<BoneState> bone_states;       ///< current pose, one per bone
  std::vector<float> morph_states;          ///< current weight, one per morph
  std::vector<std::uint8_t> ik_states;      ///< current IK on/off, one per IK bone
  std::vector<OutsideParentState> outside_parent_states;  ///< v2: one per outside-parent bone
  std::uint8_t blend = 0;           ///< v2: additive blending
  float edge_width = 1;             ///< v2: edge width multiplier
  std::uint8_t self_shadow = 1;     ///< v2: self-shadow on
  std::uint8_t transform_order = 0; ///< v2: calculation (transform) order
};

/// Camera keyframe: 70 bytes (v1) / 78 (v2) initial, +4 regular.
struct CameraKey : KeyLink {
  float distance = -45;                ///< MMD units (negative: camera in front of the look-at point)
  std::array<float, 3> look_at{0, 10, 0};
  std::array<float, 3> angle{};        ///< Euler radians, as VMD stores them
  OutsideParent follow;                ///< v2 only: model and bone the camera follows (-1 = none)
  /// Six curves, each 4 bytes (x1, y1, x2, y2 as the bone keys', not VMD's camera order x1, x2,
  /// y1, y2; nanoem reads them with the bone keys' function, and the corpus sample's linear keys
  /// are 20 20 107 107): X, Y, Z, rotation, distance, view angle.
  std::array<std::uint8_t, 24> interpolation{20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107,
                                             20, 20, 107, 107, 20, 20, 107, 107, 20, 20, 107, 107};
  std::uint8_t orthographic = 0;       ///< 0 = perspective (nanoem: perspective = byte == 0)
  std::int32_t view_angle = 30;        ///< degrees
  std::uint8_t selected = 0;
};

struct Camera {
  CameraKey initial_key;
  std::vector<CameraKey> keys;
  std::array<float, 3> look_at{};      ///< current (unkeyed) state
  std::array<float, 3> position{};
  std::array<float, 3> angle{};
  std::uint8_t orthographic = 0;
};

/// Light keyframe: 37 bytes initial, 41 regular.
struct LightKey : KeyLink {
  std::array<float, 3> color{0.6015625f, 0.6015625f, 0.6015625f};  ///< UI value / 256
  std::array<float, 3> direction{-0.5f, -1, 0.5f};
  std::uint8_t selected = 0;
};

struct Light {
  LightKey initial_key;
  std::vector<LightKey> keys;
  std::array<float, 3> color{};        ///< current state
  std::array<float, 3> direction{};
};

/// Accessory keyframe: 51 bytes initial, 55 regular.
struct AccessoryKey : KeyLink {
  /// Opacity and visibility in one byte (nanoem): bit 0 = visible, bits 1..7 = 100 − opacity in
  /// percent. See accessory_opacity / accessory_visible.
  std::uint8_t opacity_visible = 1;
  OutsideParent parent;                ///< model and bone the accessory is attached to (-1 = world)
  std::array<float, 3> translation{};
  std::array<float, 3> rotation{};     ///< Euler radians
  float scale = 1;
  std::uint8_t shadow = 1;
  std::uint8_t selected = 0;
};

struct Accessory {
  std::uint8_t index = 0;
  AccessoryName name;
  Path path;                           ///< .x or .vac file as saved
  std::uint8_t draw_order = 0;
  AccessoryKey initial_key;
  std::vector<AccessoryKey> keys;
  // Current (unkeyed) state, in the file's order.
  std::uint8_t opacity_visible = 1;
  OutsideParent parent;
  std::array<float, 3> translation{};
  float scale = 1;
  std::array<float, 3> rotation{};
  std::uint8_t shadow = 1;
  std::uint8_t add_blend = 0;          ///< v2 only
};

/// Opacity 0..1 of an accessory key's or state's packed byte.
inline float accessory_opacity(std::uint8_t packed) noexcept { return static_cast<float>(100 - (packed >> 1)) * 0.01f; }
inline bool accessory_visible(std::uint8_t packed) noexcept { return (packed & 1) != 0; }

/// Gravity keyframe (v2): 34 bytes initial, 38 regular.
struct GravityKey : KeyLink {
  std::uint8_t noise_enabled = 0;
  std::int32_t noise = 0;
  float acceleration = 9.8f;
  std::array<float, 3> direction{0, -1, 0};
  std::uint8_t selected = 0;
};

struct Gravity {
  float acceleration = 9.8f;           ///< current state
  std::int32_t noise = 0;
  std::array<float, 3> direction{0, -1, 0};
  std::uint8_t noise_enabled = 0;
  GravityKey initial_key;
  std::vector<GravityKey> keys;
};

/// Self-shadow keyframe (v2): 18 bytes initial, 22 regular.
struct SelfShadowKey : KeyLink {
  std::uint8_t mode = 1;               ///< 0 off, 1 mode 1, 2 mode 2
  float distance = 0.01125f;           ///< stored = (10000 − UI) / 100000, as VMD
  std::uint8_t selected = 0;
};

struct SelfShadow {
  std::uint8_t enabled = 1;
  float distance = 0.01125f;
  SelfShadowKey initial_key;
  std::vector<SelfShadowKey> keys;
};

/// A model's selection entry at the end of a v2 file (nanoem: model index + selection index).
struct ModelSelection {
  std::uint8_t model = 0;
  std::int32_t selection = 0;
};

/// A whole project.
struct Document {
  Version version = Version::v2;
  std::array<std::uint8_t, kSignatureSize> signature{};  ///< as stored
  Encoding encoding = Encoding::cp932;
  // Header.
  std::int32_t output_width = 512;
  std::int32_t output_height = 288;
  std::int32_t timeline_width = 250;   ///< keyframe panel width, pixels
  float view_angle = 30;               ///< camera field of view in the UI, degrees
  std::uint8_t editing_camera = 1;     ///< 1 = camera/light/accessory mode, 0 = model mode
  std::array<std::uint8_t, 5> panels_expanded{1, 1, 1, 1, 1};  ///< camera, light, accessory, bone, morph
  std::uint8_t self_shadow_panel_expanded = 1;  ///< v2 only
  // Models.
  std::uint8_t selected_model = 0;
  std::vector<ModelNameV1> model_names_v1;  ///< v1 only: the list of names before the models
  std::vector<Model> models;
  Camera camera;
  Light light;
  std::uint8_t selected_accessory = 0;
  std::int32_t accessory_scroll = 0;
  std::vector<AccessoryName> accessory_names;  ///< u8 count; one per accessory
  std::vector<Accessory> accessories;
  // Playback and view settings.
  std::int32_t current_frame = 0;
  std::int32_t horizontal_scroll = 0;
  std::int32_t horizontal_scroll_thumb = 0;
  std::int32_t editing_mode = 0;       ///< nanoem: 0 select, 1 select box, 2 none, 3 rotate, 4 move
  std::uint8_t camera_look_mode = 0;   ///< as stored (nanoem: camera_look_mode; meaning not documented)
  std::uint8_t loop = 0;
  std::uint8_t begin_enabled = 0;      ///< play range start in use
  std::uint8_t end_enabled = 0;        ///< play range end in use
  std::int32_t begin_frame = 0;        ///< play range
  std::int32_t end_frame = 0;
  std::uint8_t audio_enabled = 0;
  Path audio_path;                     ///< .wav as saved
  std::int32_t background_video_x = 0;
  std::int32_t background_video_y = 0;
  float background_video_scale = 1;
  Path background_video_path;
  std::int32_t background_video_enabled = 0;  ///< 4 bytes
  std::int32_t background_image_x = 0;
  std::int32_t background_image_y = 0;
  float background_image_scale = 1;
  Path background_image_path;
  std::uint8_t background_image_enabled = 0;
  std::uint8_t show_information = 1;
  std::uint8_t show_grid = 1;          ///< grid and axes
  std::uint8_t ground_shadow = 1;
  float preferred_fps = 30;            ///< playback frame rate setting (30 or 60), not the key unit
  std::int32_t screen_capture_mode = 0;
  std::int32_t accessory_after_models = -1;  ///< accessories drawn after models from this index
  float ground_shadow_brightness = 1;
  // Version 2 only from here.
  std::uint8_t translucent_ground_shadow = 0;
  std::uint8_t physics_mode = 0;       ///< 0 off, 1 always, 2 while playing, 3 tracing (nanoem)
  Gravity gravity;
  SelfShadow self_shadow;
  std::array<std::int32_t, 3> edge_color{};  ///< RGB 0..255
  std::uint8_t black_background = 0;
  OutsideParent camera_look_at;        ///< model and bone the camera looks at (-1 = none)
  std::array<float, kMatrixSize> matrix{};   ///< 64 bytes of unknown meaning (nanoem: unknown_matrix)
  std::uint8_t follow_look_at = 0;
  std::uint8_t unknown_flag = 0;
  std::uint8_t physics_ground = 1;
  std::int32_t frame_in_text_field = 0;
  /// The selection section: a flag byte (absent in older saves), then, when it is not 0 (or the
  /// bytes left are exactly one entry per model), one ModelSelection per model.
  std::optional<std::uint8_t> selection_flag;
  std::vector<ModelSelection> selections;
  /// v1 only: everything after ground_shadow_brightness (edge colour, a camera look-at list, a
  /// matrix and flags per the notes; not interpreted), kept as stored.
  std::vector<std::uint8_t> v1_tail;
  /// v2: bytes after the last section (warning when read; ReadOptions::strict: error).
  std::vector<std::uint8_t> trailing;
  std::int64_t trailing_offset = -1;
};

/// The bone, morph and IK counts of a model file: what a version-1 project needs to be parsed
/// (nanoem's parse callback reads the model file for them).
struct ModelCounts {
  std::size_t bones = 0;
  std::size_t morphs = 0;  ///< every morph record of the file (PMD: the base morph included)
  std::size_t iks = 0;     ///< IK chains (PMD) / bones with IK (PMX), model order
};

/// What a version-1 model record tells before its keys: the model's index, name and path (their
/// `text` decoded in ReadOptions::encoding, CP932 by default; `raw` as stored).
struct ModelRef {
  std::size_t index = 0;
  const EncodedText* name = nullptr;
  const Path* path = nullptr;
};

struct ReadOptions {
  std::optional<Encoding> encoding;  ///< force CP932 / GBK; nullopt = detect
  bool strict = false;               ///< bytes after the last section are an error
  /// Version 1 only: the counts of a model (usually read from its file, as nanoem's parse callback
  /// does), asked once per model in file order. nullopt = unknown: the read fails with
  /// `unsupported` naming the model, its path and the offset of its keys. Unset: every version-1
  /// project with a model is refused that way. Wrong counts misparse the rest of the file: the
  /// read then usually fails, and never writes back different bytes.
  std::function<std::optional<ModelCounts>(const ModelRef&)> model_counts;
};

struct ReadResult {
  Document document;
  std::vector<Warning> warnings;
};

/// Parses a project. Errors (section, record and byte offset set): empty_input, bad_signature,
/// truncated (a record or field the file ends in: the record's start offset), count_too_large (a
/// count whose records cannot fit in the bytes left, at the count's offset), unsupported (a
/// version-1 model whose counts ReadOptions::model_counts does not give), trailing_data (strict).
Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options = {});
Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options = {});

/// Serializes a project (the inverse of read). Errors: invalid_argument when lists that must
/// agree do not (v2: initial bone keys, bone states vs bone names; IK and outside-parent lists vs
/// the model keys; accessories vs accessory names; v1: model_names_v1 vs models), encoding_error
/// when a text cannot be encoded or does not fit its field (variable names: 255 bytes).
Result<std::vector<std::uint8_t>> write(const Document& document);

/// "Polygon Movie maker 0001" / "... 0002".
std::string_view signature_text(Version v) noexcept;

/// Lossless JSON (docs/formats/pmm.md "JSON"): every field, names in the one name form.
std::string to_json(const Document& document);
Result<Document> from_json(std::string_view text);

/// Finds the file a project names (a model, accessory, audio or background path, saved as a
/// Windows path of the saving machine, e.g. `C:\MMD\UserFile\Model\初音ミク.pmd`): the path as
/// stored ('\' read as '/'; a relative path below `project_folder`), else its trailing
/// components below `project_folder`, the longest first (`UserFile/Model/初音ミク.pmd`, then
/// `Model/初音ミク.pmd`, then `初音ミク.pmd`), each component matched case-insensitively (ASCII) as
/// Windows does. nullopt when none exists. nanoem re-resolves paths below `UserFile/` the same
/// way (emapp/src/internal/project/PMM.cc).
std::optional<std::filesystem::path> resolve_path(const std::string& stored, const std::filesystem::path& project_folder);

/// The components of a stored path as resolve_path reads them: '\' and '/' both separate, empty
/// components dropped (`C:\MMD\\m.pmd` gives "C:", "MMD", "m.pmd"); `drive` is set when it starts
/// with a drive letter and a colon (that component is never a folder below the project).
std::vector<std::string> split_stored_path(const std::string& stored, bool& drive);

/// A problem `check` found (error or warning), with its location.
struct CheckFinding {
  bool error = false;
  Error where;
};

/// Structural checks: key ids out of range or repeated, chains that do not link up (a `next`
/// naming no key, a key whose `previous` is not the key before it, frames that do not increase,
/// keys no chain reaches), indices of bones, morphs, models out of range (IK and outside-parent
/// bones, outside parents, accessory parents, camera follow); warnings for a model or accessory
/// whose stored index is not its position. Files are not looked at here.
std::vector<CheckFinding> check(const Document& document);

}  // namespace mmdkit::pmm
