# The pixels of a PNG, for the tests that look at what a renderer drew (8-bit RGB or RGBA, as
# rsvg-convert's and Chromium's are). As a module: pixels(PATH) -> (width, height, [(r, g, b)]).
# As a program: png_pixels.py FILE.png [R,G,B] prints "WIDTH HEIGHT COLOURS [PIXELS]": its
# size, how many distinct colours it has, and (with R,G,B) how many pixels are within 40 of
# that colour in each channel.
import struct, sys, zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("FAIL: not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        sys.exit(f"FAIL: PNG depth {depth} colour type {ctype}, want 8-bit RGB(A)")
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, px = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        px += [tuple(line[i:i + 3]) for i in range(0, stride, bpp)]
        prev = line
    return w, h, px


if __name__ == "__main__":
    w, h, px = pixels(sys.argv[1])
    out = [w, h, len(set(px))]
    if len(sys.argv) > 2:
        want = tuple(int(x) for x in sys.argv[2].split(","))
        out.append(sum(1 for p in px if all(abs(p[k] - want[k]) <= 40 for k in range(3))))
    print(*out)
