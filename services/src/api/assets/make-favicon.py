#!/usr/bin/env python3
"""Writes favicon.ico beside this script: the shapes of favicon.svg (a card with a spade),
drawn at 16 and 32 pixels (4x4 samples a pixel) and stored as PNG images inside an ICO
(the form every current browser reads). Standard library only: python3 make-favicon.py"""
import math, os, struct, zlib

def inside_card(x, y):
    # rect x 4..28, y 1..31, corner radius 4, border 2 (stroke centred on the edge)
    def in_rrect(x0, y0, x1, y1, r):
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    if not in_rrect(3, 0, 29, 32, 5):
        return None
    return 'paper' if in_rrect(5, 2, 27, 30, 3) else 'border'

def inside_spade(x, y):
    if 6 <= y <= 18 and abs(x - 16) <= (y - 6) * 0.68:
        return True
    for cx in (12.2, 19.8):
        if (x - cx) ** 2 + (y - 18) ** 2 <= 4.1 ** 2:
            return True
    if 19 <= y <= 26:
        return abs(x - 16) <= 0.8 + (y - 19) * 0.25
    return False

COLOURS = {'border': (0x1b, 0x5e, 0x20), 'paper': (0xff, 0xff, 0xff), 'spade': (0x1b, 0x1b, 0x1b)}

def pixel(px, py, size):
    acc = [0, 0, 0, 0]
    n = 4
    for sy in range(n):
        for sx in range(n):
            x = (px + (sx + 0.5) / n) * 32 / size
            y = (py + (sy + 0.5) / n) * 32 / size
            part = inside_card(x, y)
            if part is None:
                continue
            if part == 'paper' and inside_spade(x, y):
                part = 'spade'
            r, g, b = COLOURS[part]
            acc[0] += r; acc[1] += g; acc[2] += b; acc[3] += 1
    if acc[3] == 0:
        return (0, 0, 0, 0)
    k = acc[3]
    return (acc[0] // k, acc[1] // k, acc[2] // k, 255 * k // (n * n))

def png(size):
    rows = b''.join(b'\0' + bytes(c for px in range(size) for c in pixel(px, py, size)) for py in range(size))
    def chunk(tag, data):
        return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b''))

images = [png(16), png(32)]
header = struct.pack('<HHH', 0, 1, len(images))
offset = 6 + 16 * len(images)
entries = b''
for size, data in zip((16, 32), images):
    entries += struct.pack('<BBBBHHII', size, size, 0, 0, 1, 32, len(data), offset)
    offset += len(data)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'favicon.ico'), 'wb') as f:
    f.write(header + entries + b''.join(images))
