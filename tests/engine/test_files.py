"""Save and replay files: every unreadable or unwritable path is a clear SaveFormatError."""

from __future__ import annotations

import pytest

from dicetable.engine import DicetableError, SaveFormatError, read_json, write_json


def test_reading_a_folder_a_device_or_deep_nesting_is_a_clear_error(tmp_path):
    with pytest.raises(SaveFormatError, match="is a folder, not a saved game or replay file"):
        read_json(tmp_path)
    with pytest.raises(SaveFormatError, match="is not a regular file"):
        read_json("/dev/zero")            # would otherwise read forever
    with pytest.raises(SaveFormatError, match="no such file"):
        read_json(tmp_path / "missing.json")
    with pytest.raises(SaveFormatError, match="cannot read /dev/null/x: Not a directory"):
        read_json("/dev/null/x")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(SaveFormatError, match="nested too deeply"):
        read_json(deep)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SaveFormatError, match="is not a JSON file"):
        read_json(binary)


def test_writing_to_a_folder_or_an_impossible_path_is_a_clear_error(tmp_path):
    with pytest.raises(SaveFormatError, match="it is a folder; give a file name such as"):
        write_json(tmp_path, {})
    with pytest.raises(SaveFormatError, match="cannot save to /proc/x: .*folder you can write to"):
        write_json("/proc/x", {})
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(DicetableError, match=f"^cannot save to {blocker / 'inside.json'}: {blocker} is a file, "
                                             "not a folder; give a file path in a folder you can write to$"):
        write_json(blocker / "inside.json", {})
    with pytest.raises(DicetableError, match="file is a file, not a folder"):
        write_json(blocker / "deeper" / "inside.json", {})
    ok = write_json(tmp_path / "new" / "dir" / "a.json", {"a": 1})
    assert read_json(ok) == {"a": 1}


def test_a_nul_byte_in_a_path_is_a_clear_error():
    with pytest.raises(SaveFormatError, match="cannot read"):
        read_json("a\x00b")
    with pytest.raises(SaveFormatError, match="cannot save to"):
        write_json("a\x00b", {})
