#!/usr/bin/env python3
"""Regenerates gps-photo.jpg, the metadata-stripping fixture.

A 96x64 JPEG (quadrants: red top-left, green top-right, blue bottom-left,
yellow bottom-right, as stored) carrying everything an upload should lose:
  * APP1 Exif: IFD0 Make "TestCam", Model "Phone 1", Orientation 6, and a GPS
    IFD placing the photo at 52°31'12"N 13°24'18"E (big-endian "MM" TIFF);
  * APP1 XMP packet (namespace http://ns.adobe.com/xap/1.0/);
  * APP2 ICC_PROFILE with a minimal profile header;
  * COM comment.
The metadata segments are written by hand so the layout is exact; Pillow only
encodes the pixels. Requires: pip install pillow
"""
import io
import pathlib
import struct

from PIL import Image


def segment(marker: int, payload: bytes) -> bytes:
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


def tiff_ifd(entries, data_start):
    """Big-endian IFD. entries: (tag, type, count, value_bytes). Values over
    four bytes go to a data area that starts at offset `data_start`."""
    body = struct.pack(">H", len(entries))
    data = b""
    for tag, kind, count, value in entries:
        if len(value) <= 4:
            field = value.ljust(4, b"\0")
        else:
            field = struct.pack(">I", data_start + len(data))
            data += value + (b"\0" if len(value) % 2 else b"")
        body += struct.pack(">HHI", tag, kind, count) + field
    body += struct.pack(">I", 0)  # no next IFD
    return body, data


ASCII, SHORT, LONG, RATIONAL, BYTE = 2, 3, 4, 5, 1


def rationals(*values):
    return b"".join(struct.pack(">II", v, 1) for v in values)


def exif_payload() -> bytes:
    header = b"MM" + struct.pack(">HI", 42, 8)
    ifd0_entries = 4
    ifd0_size = 2 + 12 * ifd0_entries + 4
    ifd0_data_start = 8 + ifd0_size
    make, model = b"TestCam\0", b"Phone 1\0"
    gps_offset = ifd0_data_start + len(make) + len(model)
    ifd0, ifd0_data = tiff_ifd([
        (0x010F, ASCII, len(make), make),
        (0x0110, ASCII, len(model), model),
        (0x0112, SHORT, 1, struct.pack(">H", 6)),
        (0x8825, LONG, 1, struct.pack(">I", gps_offset)),
    ], ifd0_data_start)
    assert len(ifd0) == ifd0_size and len(ifd0_data) == gps_offset - ifd0_data_start
    gps_entries = 5
    gps_data_start = gps_offset + 2 + 12 * gps_entries + 4
    gps, gps_data = tiff_ifd([
        (0x0000, BYTE, 4, bytes([2, 3, 0, 0])),          # GPSVersionID
        (0x0001, ASCII, 2, b"N\0"),                       # GPSLatitudeRef
        (0x0002, RATIONAL, 3, rationals(52, 31, 12)),     # GPSLatitude
        (0x0003, ASCII, 2, b"E\0"),                       # GPSLongitudeRef
        (0x0004, RATIONAL, 3, rationals(13, 24, 18)),     # GPSLongitude
    ], gps_data_start)
    return b"Exif\0\0" + header + ifd0 + ifd0_data + gps + gps_data


def xmp_payload() -> bytes:
    packet = (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"'
        ' tiff:Make="TestCam" exif:GPSLatitude="52,31.2N" exif:GPSLongitude="13,24.3E"/>'
        '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
    )
    return b"http://ns.adobe.com/xap/1.0/\0" + packet.encode("utf-8")


def icc_payload() -> bytes:
    profile = bytearray(132)
    struct.pack_into(">I", profile, 0, len(profile))   # profile size
    struct.pack_into(">I", profile, 8, 0x02100000)     # version 2.1
    profile[12:16] = b"mntr"
    profile[16:20] = b"RGB "
    profile[20:24] = b"XYZ "
    profile[36:40] = b"acsp"
    # tag count (offset 128) stays 0
    return b"ICC_PROFILE\0" + bytes([1, 1]) + bytes(profile)


def pixels() -> bytes:
    image = Image.new("RGB", (96, 64))
    colours = {(0, 0): (220, 30, 30), (1, 0): (30, 200, 60), (0, 1): (30, 60, 220), (1, 1): (240, 220, 30)}
    for y in range(64):
        for x in range(96):
            image.putpixel((x, y), colours[(x // 48, y // 32)])
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=92)
    return out.getvalue()


def main() -> None:
    encoded = pixels()
    assert encoded[:2] == b"\xff\xd8"
    result = (
        encoded[:2]
        + segment(0xE1, exif_payload())
        + segment(0xE1, xmp_payload())
        + segment(0xE2, icc_payload())
        + segment(0xFE, b"Shot on TestCam Phone 1 at Alexanderplatz")
        + encoded[2:]
    )
    target = pathlib.Path(__file__).with_name("gps-photo.jpg")
    target.write_bytes(result)

    # Check that a real EXIF reader finds what the test relies on.
    with Image.open(target) as check:
        exif = check.getexif()
        assert exif[0x010F] == "TestCam" and exif[0x0110] == "Phone 1" and exif[0x0112] == 6
        gps = exif.get_ifd(0x8825)
        assert gps[2] == (52.0, 31.0, 12.0) and gps[4] == (13.0, 24.0, 18.0), gps
        assert check.size == (96, 64)
    print(f"wrote {target} ({len(result)} bytes)")


if __name__ == "__main__":
    main()
