"""Joint sets: named joints computed from a model's bones (mmdkit.dataset ``joints=``).

A joint's position is the mean of the model-space positions of its position bones (the first
alternative whose bones the model all has); its rotation is the model-space rotation of its
rotation bone (the first the model has). Bone names are MMD's standard Japanese names
(docs/PYTHON.md "smpl24" gives the table, the sources and the choices).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

from .errors import ArgumentError

__all__ = ["Joint", "JointSet", "SMPL24", "JOINT_SETS", "joint_set"]


@dataclass(frozen=True)
class Joint:
    name: str
    #: alternatives, in order of preference: each a tuple of bones whose positions are averaged
    positions: Tuple[Tuple[str, ...], ...]
    #: bones whose model-space rotation is the joint's, in order of preference
    rotations: Tuple[str, ...]


@dataclass(frozen=True)
class JointSet:
    name: str
    joints: Tuple[Joint, ...]

    @property
    def names(self) -> List[str]:
        return [j.name for j in self.joints]

    def resolve(self, bone_names: Sequence[str]):
        """For a model's bone names: (bones to sample, per joint the indices into that list to
        average, per joint the index of its rotation bone). ArgumentError naming the joint and the
        bones tried when the model lacks them."""
        index: Dict[str, int] = {}
        for i, n in enumerate(bone_names):
            index.setdefault(n, i)
        used: List[int] = []
        slot: Dict[int, int] = {}

        def take(bone: str) -> int:
            b = index[bone]
            if b not in slot:
                slot[b] = len(used)
                used.append(b)
            return slot[b]

        pos_ix, rot_ix = [], []
        for j in self.joints:
            alt = next((a for a in j.positions if all(b in index for b in a)), None)
            rb = next((b for b in j.rotations if b in index), None)
            if alt is None or rb is None:
                tried = " or ".join("+".join(a) for a in j.positions)
                raise ArgumentError(f"joint set {self.name}: joint {j.name!r} needs bone(s) {tried} "
                                    f"(rotation: {' or '.join(j.rotations)}), which the model lacks",
                                    "invalid_argument")
            pos_ix.append([take(b) for b in alt])
            rot_ix.append(take(rb))
        return used, pos_ix, rot_ix


def _j(name, positions, rotations=None):
    positions = tuple(tuple(a) if isinstance(a, (tuple, list)) else (a,) for a in positions)
    rotations = tuple(rotations) if rotations else tuple(a[0] for a in positions if len(a) == 1) or (positions[0][0],)
    return Joint(name, positions, rotations)


# The 24 SMPL joints in SMPL's order (Loper et al. 2015, SMPL; names as smplx/joint_names.py),
# from MMD's standard bones. 左 = the model's left = SMPL's left (+X in both spaces).
SMPL24 = JointSet("smpl24", (
    _j("pelvis", [("左足", "右足")], ["下半身"]),
    _j("left_hip", ["左足"]),
    _j("right_hip", ["右足"]),
    _j("spine1", ["上半身"]),
    _j("left_knee", ["左ひざ"]),
    _j("right_knee", ["右ひざ"]),
    _j("spine2", ["上半身2", ("上半身", "首")], ["上半身2", "上半身"]),
    _j("left_ankle", ["左足首"]),
    _j("right_ankle", ["右足首"]),
    _j("spine3", [("左肩", "右肩")], ["上半身2", "上半身"]),
    _j("left_foot", ["左つま先"], ["左足首"]),
    _j("right_foot", ["右つま先"], ["右足首"]),
    _j("neck", ["首"]),
    _j("left_collar", ["左肩"]),
    _j("right_collar", ["右肩"]),
    _j("head", ["頭"]),
    _j("left_shoulder", ["左腕"]),
    _j("right_shoulder", ["右腕"]),
    _j("left_elbow", ["左ひじ"]),
    _j("right_elbow", ["右ひじ"]),
    _j("left_wrist", ["左手首"]),
    _j("right_wrist", ["右手首"]),
    _j("left_hand", ["左中指１", "左手首"], ["左手首"]),
    _j("right_hand", ["右中指１", "右手首"], ["右手首"]),
))

JOINT_SETS = {"smpl24": SMPL24}


def joint_set(name_or_set) -> JointSet:
    if isinstance(name_or_set, JointSet):
        return name_or_set
    try:
        return JOINT_SETS[name_or_set]
    except KeyError:
        raise ArgumentError(f"unknown joint set {name_or_set!r} (known: {', '.join(JOINT_SETS)})",
                            "invalid_argument") from None


def __dir__() -> "list[str]":
    """The module's API (``__all__``): what ``dir()`` and tab completion show, not its imports."""
    return sorted(__all__)
