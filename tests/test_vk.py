"""The VK post: golden text of the example, alignment, length limit, escaping, the picture."""

from __future__ import annotations

import io

from sheets_sync.render.vk import FIGURE_SPACE, WORD_JOINER, post_image, post_text, utf16_len
from tests.test_site import FORMULA, XSS, check_golden, example_outcome, hostile_outcome


def test_golden_post_ru():
    o = example_outcome()
    check_golden("vk-post.ru.txt", post_text(o.results, language=o.language))


def test_golden_post_en():
    o = example_outcome()
    check_golden("vk-post.en.txt", post_text(o.results, language="en", link="https://example.org/gmo"))


def test_post_shape():
    o = example_outcome()
    text = post_text(o.results, language="ru")
    lines = text.splitlines()
    assert lines[0].startswith("🏆 ") and o.results.tournament.name in lines[0]
    assert any(line.startswith("📅 ") for line in lines)
    for medal, st in zip("🥇🥈🥉", o.results.overall[:3]):
        assert any(line.startswith(f"{medal} {st.stats.player} — ") for line in lines)
    assert "#" in lines[-1]
    assert "<" not in text.replace("<", "") and "**" not in text  # no markup at all
    table = [line for line in lines if "." in line[:4] and " — " in line]
    assert len(table) == 20
    # aligned with figure spaces, never with runs of ASCII spaces
    assert any(FIGURE_SPACE in line for line in table)
    assert not any("  " in line for line in lines)
    # every total starts at the same column and the decimal points line up
    heads = {line.index(" — ") for line in table}
    assert len(heads) == 1


def test_length_limit_truncates_gracefully():
    o = example_outcome()
    full = post_text(o.results, language="ru", top=0)
    assert "и ещё" not in full and utf16_len(full) < 16384
    short = post_text(o.results, language="ru", top=0, limit=1200)
    assert utf16_len(short) <= 1200
    assert "… и ещё" in short and short.rstrip().splitlines()[-1].startswith("#")


def test_hostile_nicknames_in_post():
    o = hostile_outcome()
    text = post_text(o.results, language="ru", top=0)
    assert XSS in text  # VK shows text as text
    assert FORMULA in text
    assert "@id1" not in text and "@" + WORD_JOINER + "id1" in text  # no mention
    assert "[id1|x]" not in text  # no VK link markup
    assert "#тег" not in text


def test_picture():
    from PIL import Image

    o = example_outcome()
    data = post_image(o.results, language="ru")
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width == 1080 and 600 < img.height < 2200
    assert post_image(o.results, language="ru") == data  # deterministic
    hostile = post_image(hostile_outcome().results, language="ru")
    assert hostile != data
    # the title band is dark and the table below is light: something was drawn in both
    assert img.convert("L").getpixel((5, 5)) < 80 and img.convert("L").getpixel((5, img.height - 5)) > 200


def test_a_picture_is_a_png_made_with_pillows_png_plugin_alone():
    """png_bytes names its buffer instead of passing a format, so that Pillow loads no other format
    plugin (4 ms of each process); if a Pillow release stopped honouring the name, this says so."""
    import subprocess
    import sys

    code = ("import sys; from PIL import Image; from sheets_sync.render.vk import png_bytes; "
            "data = png_bytes(Image.new('RGB', (30, 20), '#8a1c1c')); "
            "print(data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', sorted(m for m in sys.modules if m.endswith('ImagePlugin')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "['PIL.PngImagePlugin']"]
