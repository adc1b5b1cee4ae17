import textwrap

from bench import testing


def test_junit_counts(tmp_path):
    report = tmp_path / "r.xml"
    report.write_text(textwrap.dedent("""\
        <?xml version="1.0" encoding="utf-8"?>
        <testsuites><testsuite name="pytest" errors="1" failures="2" skipped="3" tests="20"></testsuite></testsuites>
    """))
    assert testing.junit_counts(report) == (14, 3, 3)


def test_junit_counts_of_a_missing_or_broken_report(tmp_path):
    assert testing.junit_counts(tmp_path / "missing.xml") == (0, 0, 0)
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuite")
    assert testing.junit_counts(broken) == (0, 0, 0)


def test_free_port_is_bindable():
    import socket
    from bench import stacks
    port = stacks.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
