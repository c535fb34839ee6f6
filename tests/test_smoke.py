from harness import SSEDecoder
from harness.cli import main


def test_cli_help_runs() -> None:
    assert main([]) == 0


def test_decoder_exported() -> None:
    d = SSEDecoder()
    assert [e.data for e in d.feed(b"data: x\n\n")] == ["x"]
