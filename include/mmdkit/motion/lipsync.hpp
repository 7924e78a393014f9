// mmdkit — `lipsync`: mouth morphs (あ い う え お) keyed from a voice recording or from a score
// (docs/LIPSYNC.md).
//
// Two sources give one thing, a MouthTrack: per video frame (30 fps by default) a weight 0..1 for
// each vowel shape and for "closed". From it lipsync_motion() builds a VMD with the model's vowel
// morphs keyed, few keys (motion::reduce on the morph tracks) for audio, exact keys for a score.
//
// - Audio (analyze_audio, lipsync_audio.cpp): mono samples → per frame energy, voicing
//   (normalised autocorrelation) and the formants F1, F2, F3 (LPC roots), F1 and F2 normalised per
//   voice (one scale factor, the voice's median F3 against a reference), the vowel
//   chosen by distance to five prototypes in log-frequency, the mouth's opening from the energy;
//   then attack / release limits and a minimum hold (a mouth cannot change shape every frame).
// - Score (read_score, lipsync_score.cpp): UTAU .ust, VOCALOID3/4 .vsqx, HTK .lab → notes with
//   times in seconds and a mouth shape each (kana / romaji / phoneme → vowel, written once in
//   lyric_shape), then score_track(): each note's shape held over the note, reached lead_ms
//   before its onset, crossfaded over transition_frames.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::motion {

/// A mouth shape: the five Japanese vowels, closed (ん, っ, m/b/p, silence) and rest (no note:
/// closed too, kept apart so that a score's rests and its ん can be told apart in reports).
enum class MouthShape : std::uint8_t { a = 0, i = 1, u = 2, e = 3, o = 4, closed = 5, rest = 6 };

/// Channels of a MouthTrack frame: a i u e o closed (the MouthShape values 0..5).
inline constexpr std::size_t kMouthChannels = 6;

/// Name of a shape: "a", "i", "u", "e", "o", "closed", "rest".
std::string_view shape_name(MouthShape s) noexcept;

/// Per-frame mouth weights.
struct MouthTrack {
  double fps = 30;  ///< frames per second of `frames` (VMD frames are 30 per second)
  /// frames[f][c]: weight of channel c (a i u e o closed) at frame f = time f / fps seconds, each
  /// 0..1 (a weight of 1 is the morph fully on; the vowels scaled by the gain). The closed channel
  /// is 1 where the mouth is shut (silence; a score's rests, ん, っ) and crossfades with the
  /// vowels as they do.
  std::vector<std::array<float, kMouthChannels>> frames;
};

// ------------------------------------------------------------------------------------------------
// Audio

/// Options of analyze_audio.
struct AudioLipOptions {
  double fps = 30;      ///< output frames per second (0 < fps ≤ 1000; VMD: 30)
  double gain = 1.0;    ///< scale of the vowel weights (> 0); weights are clamped to 1 after it
  /// Smoothing strength 0..100: multiplies the attack (2 frames from shut to open), release (3
  /// frames from open to shut) and minimum hold (2 frames), counted at 30 fps (scaled with fps);
  /// 0 = none (raw per-frame shapes).
  double smooth = 1.0;
  /// Share of the soft vowel mixture in the weights (0..1): 0 = only the frame's vowel,
  /// 1 = the mixture of the five by their distances ("in between" shapes).
  double blend = 0.3;
};

/// What analyze_audio measured.
struct AudioLipReport {
  std::size_t frames = 0;            ///< output frames
  std::size_t voiced_frames = 0;     ///< frames judged voiced (periodic, loud enough)
  std::size_t open_frames = 0;       ///< frames whose vowel weights sum above 0.05 after smoothing
  bool silent = false;               ///< no frame reached the silence threshold (−60 dBFS RMS)
  double peak_rms_db = -200;         ///< loudest frame's RMS, dBFS (full scale = 1.0)
  /// Estimated share (0..1) of the energy of the frames above the gate that is voice-like: in
  /// frames that are voiced (a clear pitch) with F1 and F2 found within 3 spreads of a vowel
  /// prototype. Clean speech gives ~0.98; speech under noise or drums much less; harmonic
  /// instruments can pass (docs/LIPSYNC.md "A full mix"); below 0.35 the result will be poor.
  double voice_energy_fraction = 0;
  double median_f1 = 0, median_f2 = 0;  ///< Hz, over voiced frames with formants (0 when none)
  double median_f3 = 0;              ///< Hz, over the frames where F3 was found (0 when fewer than 3)
  /// Formant scale applied to this voice: 2650 Hz / median_f3, clamped to 0.75..1.33 (1 without
  /// F3). A voice's F3 moves little between vowels, so it measures the vocal tract's length.
  double voice_scale = 1;
  std::array<std::size_t, 5> vowel_frames{};  ///< open frames whose strongest vowel is a i u e o
};

/// Below this voice_energy_fraction analyze_audio's result is called poor (CLI warning).
inline constexpr double kPoorVoiceFraction = 0.35;

/// The sample rate analyze_audio works at; other rates are resampled to it (linear interpolation
/// after a windowed-sinc low-pass).
inline constexpr double kLipSampleRate = 16000;

/// Mouth weights of a mono recording `samples` (−1..1 full scale) at `sample_rate` Hz
/// (8000..384000). Frame f is analysed on a 40 ms Hann window centred at f / fps seconds.
/// Errors: invalid_argument (a rate or option out of range, a non-finite sample).
Result<MouthTrack> analyze_audio(std::span<const float> samples, double sample_rate, const AudioLipOptions& options,
                                 AudioLipReport* report = nullptr);

// ------------------------------------------------------------------------------------------------
// Score

/// A note of a score, in seconds from the song's start.
struct ScoreNote {
  double start = 0, end = 0;  ///< seconds, start < end
  std::string lyric;          ///< as written in the file (UTF-8), or the phoneme of a .lab line
  MouthShape shape = MouthShape::rest;
};

/// A score read from a file; warnings name the note's index (0-based, in file order).
struct Score {
  std::vector<ScoreNote> notes;
  std::vector<std::string> warnings;  ///< unknown lyrics, overlapping notes, skipped lines
};

/// The mouth shape of a lyric, or nullopt when it names none (the caller warns). Rules, written
/// once here:
/// - "", "R", "r", "pau", "sil", "br" (breath): rest.
/// - Kana (hiragana or katakana): the last kana decides. A vowel kana or one of a row (か → a,
///   き → i, ...), small ゃ ゅ ょ ぁ ぃ ぅ ぇ ぉ ゎ → their vowel; ん → closed; ー and "-" (a long vowel)
///   → the vowel of the kana before it in the lyric, or `previous` when it is the whole lyric;
///   っ → the kana before it (the vowel is sung, then cut), closed when alone.
/// - Romaji / phonemes (ASCII, case-insensitive): a i u e o (and Open JTalk's devoiced A I U E O)
///   as the last vowel letter (ka → a, kya → a); n, N, m, cl, q → closed; a consonant alone
///   (k, s, sh, ...) → nullopt (score readers give .lab consonants the next vowel's shape).
/// - UTAU VCV lyrics ("a か": previous vowel, space, kana) use the part after the last space;
///   trailing non-letters (↑, digits, '_' suffixes after a space) are ignored.
std::optional<MouthShape> lyric_shape(std::string_view lyric, MouthShape previous = MouthShape::rest);

/// UTAU .ust (CP932 or UTF-8; `Charset=UTF-8` or valid UTF-8 → UTF-8). [#SETTING] Tempo (BPM,
/// default 120), then [#0000]... notes: Length in ticks (480 per quarter), Lyric, optional
/// per-note Tempo (from that note on). Notes are back to back from time 0.
/// Errors: invalid_value (no note, a Length or Tempo not a positive number: naming the section).
Result<Score> parse_ust(ByteSpan bytes);

/// VOCALOID3 .vsq3 / VOCALOID4 .vsqx XML: resolution (default 480), the tempo track (VSQ4 `tempo`
/// with `t` tick and `v` BPM × 100; VSQ3 `posTick` / `bpm`), the pre-measures (`preMeasure` bars
/// of the first time signature) removed from the start (time 0 = bar 1, where the editor's
/// exported audio starts), notes of every part (`t` / `posTick` relative to the part's `t`,
/// `dur` / `durTick`, lyric `y` / `lyric`, phonemes `p` / `phnms`: the lyric's shape, else the
/// phonemes'). Notes are sorted by start; a note starting before the previous one ends is cut there
/// (warned with its index). Errors: invalid_value (not XML we can read, no note).
Result<Score> parse_vsqx(ByteSpan bytes);

/// HTK label: one `start end label` per line, times in 100 ns units (integers), or seconds when a
/// time has a decimal point (Julius' segmentation). Vowels and closures give their shape;
/// consonants take the next line's vowel (the mouth is already on its way); b p m (and by py my)
/// are closed. Errors: invalid_value (a malformed line, naming its number; end < start; no line).
Result<Score> parse_lab(ByteSpan bytes);

/// Dispatch by extension (".ust", ".vsqx", ".vsq3", ".lab"; case-insensitive).
/// Errors: unsupported (another extension) or the parser's.
Result<Score> read_score(ByteSpan bytes, std::string_view extension);

/// Options of score_keys.
struct ScoreLipOptions {
  double fps = 30;        ///< frames per second of the keys (0 < fps ≤ 1000; VMD: 30)
  double gain = 1.0;      ///< weight of a note's vowel (> 0, clamped to 1)
  /// The mouth reaches a note's shape this long before the note starts (ms, 0..10000): a singer's
  /// mouth is open when the note sounds (consonants and UTAU's PreUtterance come before the beat;
  /// 50 ms = 1.5 frames, about a consonant's length; MMDAgent likewise keys a softened shape just
  /// before each transition, LIPSYNC-NOTES).
  double lead_ms = 50;
  /// Frames over which one shape crossfades into the next (≥ 1; shortened when a note is shorter).
  std::uint32_t transition_frames = 2;
};

/// Keys of a score: for each channel (a i u e o closed) the frames and weights to key, linear
/// between keys (VMD morphs interpolate linearly). Rules:
/// - A note with start s and end t occupies frames [A, B), A = round((s − lead) · fps) and
///   B = round((t − lead) · fps), both clamped to ≥ 0; a note left with no frame is dropped.
///   Frames no note covers (before the first, between notes) are closed; rest notes are closed;
///   neighbours with the same shape (a ー note, a gap between rests) are one segment.
/// - A segment [A, B) of shape c holds c at full weight (`gain`, clamped to 1; the closed channel
///   1) from A to L = max(A, B − T) (T = transition_frames), keyed at A and L; it is keyed 0 at
///   B (where the next segment is full) and at max(A − T, L of the previous segment): one shape
///   crossfades into the next over the T frames before the next one's A.
/// - After the last note the mouth closes: a closed segment at its B (the last segment, when it is
///   closed itself, is held to B − 1). last_frame = that final key's frame.
struct ScoreKeys {
  double fps = 30;  ///< frames per second the frame numbers count at (ScoreLipOptions::fps)
  /// keys[c]: channel c's (frame, weight) keys (c: a i u e o closed), frames strictly increasing;
  /// weights 0..1. An empty channel is not keyed.
  std::array<std::vector<std::pair<std::uint32_t, float>>, kMouthChannels> keys;
  std::uint32_t last_frame = 0;  ///< the last key's frame (≤ kMaxLipFrames)
};

/// Longest score score_keys accepts, in frames (10,000,000 = 92.6 hours at 30 fps): beyond it a
/// tempo or length is surely wrong, and score_track would allocate a row per frame.
inline constexpr std::uint32_t kMaxLipFrames = 10'000'000;

/// The keys of `score` (rules above). Errors: invalid_argument (an option out of range);
/// invalid_value (a note's times not finite or reversed, naming the note); limit_exceeded (a note
/// ending after kMaxLipFrames at `fps`).
Result<ScoreKeys> score_keys(const Score& score, const ScoreLipOptions& options);

/// The per-frame weights of score keys (linear between keys, as MMD evaluates morph keys), frames
/// 0..last_frame.
MouthTrack score_track(const ScoreKeys& keys);

// ------------------------------------------------------------------------------------------------
// Morph map and motion

/// Which morph of the model each channel keys (index into model::Model::morphs; nullopt = not
/// keyed).
struct MouthMorphs {
  std::array<std::optional<std::size_t>, kMouthChannels> morph;
};

/// Finds the vowel morphs of a model: names あ い う え お, or a i u e o (case-insensitive) as the
/// Japanese or the English name (the first match in the model's order). The closed channel is
/// never found automatically (models differ: ん, 口閉じ, ...; see closed_morph). Vowels not found
/// stay nullopt. Errors: invalid_value (section "morphs") when no vowel is found, naming what was looked for.
Result<MouthMorphs> find_mouth_morphs(const model::Model& model);

/// Parses a map file: UTF-8, one `SHAPE<TAB>MORPH` per line (SHAPE: a i u e o closed, or あ い
/// う え お ん), '#' comments and blank lines skipped; MORPH must be a morph of the model (its
/// Japanese or English name). Errors: invalid_value naming the line (1-based, Error::record).
Result<MouthMorphs> parse_mouth_map(std::string_view text, const model::Model& model);

/// Options of lipsync_motion.
struct LipMotionOptions {
  /// Morph-weight tolerance of the key reduction of a dense (audio) track (motion::reduce's
  /// tol_weight, ≥ 0): every whole frame of the keyed motion is within it of the track.
  double tol_weight = 0.03;
};

/// What lipsync_motion did.
struct LipMotionReport {
  std::size_t dense_keys = 0;   ///< keys before reduction (one per frame and keyed channel)
  std::size_t keys = 0;         ///< morph keys written
  double max_weight_error = 0;  ///< largest error on a whole frame, keys vs the track
};

/// A VMD (version 2, CP932, model name = the model's, cut to 20 bytes at a character boundary)
/// keying the model's mouth morphs from a dense track: a key per frame and mapped channel (two
/// channels on one morph are summed, clamped to 1), then motion::reduce (tolerance above). Key
/// frames are the track's frame numbers: at 30 fps (the default) VMD's own rate; at another fps the
/// motion counts that many frames a second (as `motion resample --fps` reads). Errors:
/// invalid_argument (an option).
Result<vmd::Motion> lipsync_motion(const MouthTrack& track, const model::Model& model, const MouthMorphs& morphs,
                                   const LipMotionOptions& options = {}, LipMotionReport* report = nullptr);

/// A VMD keying exactly the score's keys (no reduction; frames as numbered in `keys`). When two
/// channels map to one morph, that morph's track is their per-frame sum (score_track), keyed
/// through reduce with no tolerance.
Result<vmd::Motion> lipsync_motion(const ScoreKeys& keys, const model::Model& model, const MouthMorphs& morphs,
                                   LipMotionReport* report = nullptr);

}  // namespace mmdkit::motion
