#!/usr/bin/env python3
"""Independent counter for text DirectX .x files (a second implementation for tests).

Prints one JSON object: per Mesh (file order) its vertex, face, face-index, normal, normal-face,
texture-coordinate, vertex-colour and material-list counts, plus the number of Material objects
and of Frame objects. It shares no code with mmdkit's reader: it splits the text with one regular
expression (binary bodies: a token walker turning them into the same tokens; compressed ones
inflated with Python's zlib first) and walks braces.

Usage: x_count.py FILE.x
"""
import json
import re
import struct
import sys
import zlib

TOKEN = re.compile(rb'"[^"]*"|<[^>]*>|[{}]|[^\s,;{}"<>]+')
COMMENT = re.compile(rb'(//|#)[^\n]*')


def tokens(body):
    return TOKEN.findall(COMMENT.sub(b' ', body))


def binary_tokens(body, float_size):
    """The binary token stream as the text tokens above (names, numbers, braces)."""
    out, p = [], 0
    kw = {31: b'template', 40: b'WORD', 41: b'DWORD', 42: b'FLOAT', 43: b'DOUBLE', 44: b'CHAR',
          45: b'UCHAR', 46: b'SWORD', 47: b'SDWORD', 48: b'VOID', 49: b'STRING', 50: b'UNICODE',
          51: b'CSTRING', 52: b'ARRAY'}
    while p + 2 <= len(body):
        (tok,) = struct.unpack_from('<H', body, p); p += 2
        if tok in (1, 2):
            (n,) = struct.unpack_from('<I', body, p); p += 4
            out.append(body[p:p + n] if tok == 1 else b'"' + body[p:p + n] + b'"'); p += n
            if tok == 2:
                p += 2  # terminator
        elif tok == 3:
            out.append(str(struct.unpack_from('<I', body, p)[0]).encode()); p += 4
        elif tok == 5:
            out.append(b'<guid>'); p += 16
        elif tok == 6:
            (n,) = struct.unpack_from('<I', body, p); p += 4
            out += [str(v).encode() for v in struct.unpack_from('<%dI' % n, body, p)]; p += 4 * n
        elif tok == 7:
            (n,) = struct.unpack_from('<I', body, p); p += 4
            out += [repr(v).encode() for v in struct.unpack_from('<%d%s' % (n, 'f' if float_size == 4 else 'd'), body, p)]
            p += float_size * n
        elif tok == 10:
            out.append(b'{')
        elif tok == 11:
            out.append(b'}')
        elif tok in kw:
            out.append(kw[tok])
    return out


def mszip(body):
    """MSZIP: u32 total size, then (u16 size, u16 compressed size, 'CK', raw deflate) blocks."""
    out, p = b'', 4
    while p + 4 <= len(body):
        _, csize = struct.unpack_from('<HH', body, p); p += 4
        d = zlib.decompressobj(-15, zdict=out[-32768:]) if out else zlib.decompressobj(-15)
        out += d.decompress(body[p + 2:p + csize])
        p += csize
    return out


def count(path):
    data = open(path, 'rb').read()
    fmt = data[8:12]
    body = mszip(data[16:]) if fmt in (b'tzip', b'bzip') else data[16:]
    float_size = 8 if data[12:16] == b'0064' else 4
    t = tokens(body) if fmt in (b'txt ', b'tzip') else binary_tokens(body, float_size)
    i = 0
    out = {"meshes": [], "materials": 0, "frames": 0}

    def skip_block(j):  # t[j] == b'{'
        depth = 0
        while True:
            if t[j] == b'{':
                depth += 1
            elif t[j] == b'}':
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1

    def header(j):  # t[j] = type; returns index after '{' and optional uuid
        j += 1
        if t[j] != b'{':
            j += 1  # name
        assert t[j] == b'{', t[j]
        j += 1
        if t[j].startswith(b'<'):
            j += 1
        return j

    def faces(j):
        n = int(t[j]); j += 1
        total = 0
        for _ in range(n):
            k = int(t[j]); j += 1 + k
            total += k
        return n, total, j

    def walk(j, end_depth_zero=True):
        # walks data objects until the closing brace of the current block (or the end)
        while j < len(t):
            tok = t[j]
            if tok == b'}':
                return j + 1
            if tok == b'{':
                j = skip_block(j)
                continue
            if tok == b'template':
                j = skip_block(j + 2)
                continue
            if tok == b'Frame':
                out["frames"] += 1
                j = walk(header(j))
                continue
            if tok == b'Material':
                out["materials"] += 1
                j = skip_block(header(j) - 1 if t[header(j) - 1] == b'{' else header(j) - 2)
                continue
            if tok == b'Mesh':
                j = mesh(header(j))
                continue
            # unknown object: Type [name] { ... }
            k = j + 1
            while t[k] != b'{':
                k += 1
            j = skip_block(k)
        return j

    def mesh(j):
        m = {}
        nv = int(t[j]); j += 1 + 3 * nv
        m["vertices"] = nv
        m["faces"], m["face_indices"], j = faces(j)
        while t[j] != b'}':
            typ = t[j]
            if typ == b'{':
                j = skip_block(j)
                continue
            body = header(j)
            if typ == b'MeshNormals':
                n = int(t[body]); k = body + 1 + 3 * n
                m["normals"] = n
                m["normal_faces"], _, k = faces(k)
                j = skip_block(body - 1 if t[body - 1] == b'{' else body - 2)
            elif typ == b'MeshTextureCoords':
                m["uvs"] = int(t[body])
                j = skip_block(body - 1 if t[body - 1] == b'{' else body - 2)
            elif typ == b'MeshVertexColors':
                m["vertex_colors"] = int(t[body])
                j = skip_block(body - 1 if t[body - 1] == b'{' else body - 2)
            elif typ == b'MeshMaterialList':
                m["material_list"] = int(t[body])
                m["face_materials"] = int(t[body + 1])
                # inline Material objects count as materials of the file
                k = body + 2 + int(t[body + 1])
                depth = 1
                while depth > 0:
                    if t[k] == b'{' and k + 2 < len(t) and t[k + 2] == b'}':
                        k += 3  # a reference "{ Name }", not a Material object
                        continue
                    if t[k] == b'Material':
                        out["materials"] += 1
                    if t[k] == b'{':
                        depth += 1
                    elif t[k] == b'}':
                        depth -= 1
                    k += 1
                j = k
            else:
                j = skip_block(body - 1 if t[body - 1] == b'{' else body - 2)
        out["meshes"].append(m)
        return j + 1

    walk(0)
    return out


if __name__ == '__main__':
    print(json.dumps(count(sys.argv[1]), sort_keys=True))
