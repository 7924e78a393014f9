// mmdkit — PMD → PMX conversion (and any model view → PMX), the way PmxEditor converts PMD files;
// PMX → PMD for models that fit PMD (to_pmd).
//
// Choices (docs/MODEL.md "PMD → PMX"): PMX 2.0, UTF-16LE text, index sizes the smallest that fit
// (pmx::fit_index_sizes), English names copied, material names "材質N" / "MaterialN" (PMD has
// none), the texture field split into texture + sphere map with the mode from the extension,
// toonNN.bmp → shared toon, other toon names → textures, PMD bone types → flags (+ append for
// types 5 / 9, fixed axis for type 8), IK unit angle × 4, knee links limited to X [-180°, -0.5°],
// base-relative morph indices → vertex indices (base morph dropped), rigid bodies made absolute,
// display frames Root / 表情 / one per PMD bone frame. Deform layers: 0 ordinary bones, 1 IK bones,
// 2 follow bones (and descendants of each), so that MMD's PMX evaluation runs the IK chains after
// all forward kinematics and follow bones last, as MMD does for the PMD, whatever the file order
// (PmxEditor writes 0 everywhere; mmd_tools gives IK bones 1 and type 5 bones 2 but type 9 bones
// 0; babylon-mmd gives IK bones 1). The converted PMX evaluates exactly like the PMD
// (docs/MODEL.md "Deform layers"; tests/export/pmd_to_pmx_eval_test.cpp).
#pragma once

#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::model {

/// Writes a model view as a PMX 2.0 model (UTF-16LE, minimal index sizes). Texture references
/// become the texture table (one entry per distinct reference, first use order). For a PMD view the
/// deform layers are the PMD stages (header comment). `warnings` (optional) receives what PMX
/// cannot hold: a second IK chain on the same IK bone (dropped). Errors: limit_exceeded (counts
/// beyond PMX's signed 32-bit indices).
Result<pmx::Model> to_pmx(const Model& view, std::vector<Warning>* warnings = nullptr);

/// from_pmd + to_pmx. Findings of the view builder (repaired indices) are added to `warnings`.
Result<pmx::Model> pmd_to_pmx(const pmd::Model& pmd, std::vector<Warning>* warnings = nullptr);

/// Options of to_pmd.
struct ToPmdOptions {
  /// Convert what PMD cannot hold where a close form exists, instead of refusing, and report each
  /// change as a warning (kind, count, first records): SDEF vertices → BDEF2 with the SDEF's two
  /// bones and weight (the C / R0 / R1 centre is dropped: linear blending), BDEF4 and QDEF vertices →
  /// BDEF2 of their two largest weights renormalised to sum 1 (a tie: the lower slot), additional
  /// UVs dropped, edge scales other than 0 / 1 rounded (below 0.5: edge off). What has no close
  /// form in PMD (non-vertex morphs, appends of translation, names too long, ...) is still refused.
  /// `mmdkit convert x.pmx x.pmd --lossy`.
  bool lossy = false;
};

/// Writes a model view as PMD when the model fits PMD (src/model/to_pmd.cpp, docs/MODEL.md
/// "PMX → PMD"), the inverse of from_pmd: PMD bone types from the flags (IK bone 2, rotation
/// append of ratio 1 on a visible bone 5, other whole-percent rotation appends 9 with the source in
/// the tail slot, fixed axis along the tail bone 8, hidden IK effector 6, hidden 7, movable 1,
/// else 0), IK unit angle / 4, a base morph over every vertex the vertex morphs move, the 表情
/// frame as the morph list and the other frames as bone frames, rigid bodies relative to their
/// bone, custom toons in free toon slots, names encoded in CP932. Refused (unsupported, one
/// message listing each kind with its count and first records) when the model holds what PMD
/// cannot: more than 65535 vertices or bones, SDEF / BDEF4 / QDEF weights, additional UVs, edge
/// scales other than 0 / 1, morphs other than vertex morphs, translation / local appends, external
/// parents, after-physics bones, non-knee IK limits, sub-texture or mismatched sphere maps, more
/// than 10 toons, joints other than 6-DOF springs, names longer than their fields (or without a
/// CP932 form). Losses that keep the model usable are `warnings`: BDEF2 weights rounded to whole
/// percent, material flags and edge colour / size PMD derives otherwise, PMD's bone order
/// differing from the model's deform layers, display elements PMD cannot place.
Result<pmd::Model> to_pmd(const Model& view, std::vector<Warning>* warnings = nullptr, const ToPmdOptions& options = {});

/// from_pmx + to_pmd; PMX 2.1 soft bodies do not fit either.
Result<pmd::Model> pmx_to_pmd(const pmx::Model& pmx, std::vector<Warning>* warnings = nullptr,
                              const ToPmdOptions& options = {});

}  // namespace mmdkit::model
