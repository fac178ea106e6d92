"""Watching the board: "a phone can show it read-only". Another machine on the network only
watches unless the board was started with --remote-control; any page opened with ?watch hides
the controls (a screen beside the table)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from automa.web.server import READ_ONLY, may_write
from tests.conftest import first_line, running
from tests.test_serve_browser import Browser, api, new_session, open_page, serving, settled


@pytest.mark.parametrize("client, remote_control, allowed", [
    ("127.0.0.1", False, True), ("::1", False, True), ("::ffff:127.0.0.1", False, True),
    ("192.168.1.23", False, False), ("fe80::1", False, False),
    ("192.168.1.23", True, True)])
def test_only_this_machine_drives_unless_remote_control(client: str, remote_control: bool,
                                                        allowed: bool) -> None:
    assert may_write(client, remote_control) is allowed


def test_this_machine_may_write(tmp_path: Path) -> None:
    folder = new_session(tmp_path, "access")
    with serving(folder, tmp_path) as url:
        assert api(url, "api/access") == {"write": True}


def test_a_watching_page_shows_the_battle_without_its_controls(browser: Browser,
                                                               tmp_path: Path) -> None:
    folder = new_session(tmp_path, "watch")
    with serving(folder, tmp_path) as url:
        page = open_page(browser, url + "?watch")
        view = settled(page, url)
        page.wait_for_function("() => document.body.dataset.readonly === 'true'")
        for control in ("#next", "#done", "#undo", "#hit-form", "#rollback"):
            assert not page.is_visible(control), control
        assert page.text_content("#live") == "watching"
        # N does nothing, and a drag moves nothing
        page.keyboard.press("n")
        spot = page.locator("#mat g.piece[data-piece=barbarian]").bounding_box()
        assert spot is not None
        page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
        page.mouse.down()
        page.mouse.move(spot["x"] + 80, spot["y"] + 40, steps=5)
        page.mouse.up()
        page.wait_for_timeout(400)
        assert api(url)["version"] == view["version"]
        # a change made elsewhere still shows
        request = urllib.request.Request(url + "api/damage", method="POST",
                                         data=json.dumps({"piece": "barbarian",
                                                          "amount": 1}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10):
            pass
        page.wait_for_function("v => document.body.dataset.version !== v",
                               arg=view["version"], timeout=2000)


def test_the_refusal_names_the_option() -> None:
    assert "--remote-control" in READ_ONLY and "\n" not in READ_ONLY


def test_a_post_from_another_machine_is_refused(tmp_path: Path) -> None:
    """Served on every address; a request that reaches it from a non-loopback address of this
    machine counts as another machine's (skipped where the machine has no such address)."""
    import socket

    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        pytest.skip("this machine has no address of its own")
    if address.startswith("127."):
        pytest.skip("this machine's name resolves only to loopback")
    import subprocess
    import sys

    folder = new_session(tmp_path, "remote")
    with running([sys.executable, "-m", "automa", "serve", "--session", str(folder), "--port",
                  "0", "--host", "0.0.0.0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 cwd=tmp_path) as server:
        port = first_line(server).rsplit(":", 1)[1].rstrip("/")
        remote = f"http://{address}:{port}/"
        assert api(remote, "api/access") == {"write": False}
        request = urllib.request.Request(remote + "api/undo", method="POST", data=b"{}",
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403
        assert "--remote-control" in json.load(refused.value)["error"]
        server.terminate()
        warning = server.communicate(timeout=20)[1]
    assert "can see (not change) the battle" in warning
