"""Drives the reception-chat binary through a pseudo-terminal, and the emulator through its admin (team) API.

Shared by `scripts/demo` and the pty test (Tests/ReceptionChatTests). Python standard library only, plus Pillow
for the demo photos (imported where used).
"""
import base64
import json
import os
import pty
import re
import select
import subprocess
import threading
import time
import urllib.request

CLEAR = "\x1b[H\x1b[2J"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class StepFailed(Exception):
    pass


def free_port_process(argv, env=None, pattern=r"http://127\.0\.0\.1:\d+", timeout=30):
    """Starts a server that prints its URL on the first lines; returns (process, url, output so far)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    deadline = time.time() + timeout
    seen = ""
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                raise StepFailed(f"{argv[0]} exited early: {seen}")
            continue
        seen += line
        m = re.search(pattern, line)
        if m:
            # the emulator prints its credentials and the dashboard's sign-in URL right after the URL line
            if "emulator" in line:
                for _ in range(4):
                    seen += proc.stdout.readline()
            return proc, m.group(0), seen
    raise StepFailed(f"{argv[0]} printed no URL in {timeout}s: {seen}")


class Emulator:
    """A reception-emulator process on a free loopback port and its admin API."""

    def __init__(self, binary, data_dir, extra_args=()):
        self.proc, self.url, banner = free_port_process(
            [binary, "--port", "0", "--data", data_dir, "--ping-interval", "2", *extra_args])
        self.app_id = re.search(r"App ID:\s+(\S+)", banner).group(1)
        self.admin_token = re.search(r"Admin token:\s+(\S+)", banner).group(1)
        self.identity_secret = re.search(r"Identity secret:\s+(\S+)", banner).group(1)
        self.dashboard_url = re.search(r"Dashboard:\s+(\S+)", banner).group(1)

    def admin(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/admin/" + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + self.admin_token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
            return json.loads(text) if text else {}

    def devices(self):
        return self.admin("GET", "devices")["devices"]

    def messages(self, device_id):
        return self.admin("GET", f"devices/{device_id}/messages")["messages"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class ChatSession:
    """reception-chat under a pseudo-terminal: what it draws, and lines typed into it."""

    def __init__(self, argv, log=None):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.master = master
        self.output = ""
        self.lock = threading.Lock()
        self.log = log
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if not ready:
                    if self.proc.poll() is not None:
                        return
                    continue
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.output += chunk.decode("utf-8", "replace")

    def frames(self):
        with self.lock:
            text = self.output
        return [ANSI.sub("", f).replace("\r", "") for f in text.split(CLEAR)[1:]]

    def frame(self):
        """The screen as last drawn (text after the last clear), without escape sequences."""
        frames = self.frames()
        return frames[-1] if frames else ""

    def type(self, line):
        os.write(self.master, (line + "\n").encode())

    def wait_for(self, what, predicate, timeout=20, on_wait=None):
        """Waits until `predicate(frame)` holds for the current frame; raises StepFailed with the frame otherwise."""
        deadline = time.time() + timeout
        nudged = False
        while time.time() < deadline:
            result = predicate(self.frame())
            if result:
                return result
            if on_wait and not nudged and time.time() > deadline - timeout / 2:
                on_wait()
                nudged = True
            if self.proc.poll() is not None:
                raise StepFailed(f"reception-chat exited ({self.proc.returncode}) while waiting for {what}\n{self.frame()}")
            time.sleep(0.1)
        raise StepFailed(f"timed out after {timeout}s waiting for {what}; the screen shows:\n{self.frame()}")

    def wait_for_line(self, pattern, timeout=20, on_wait=None):
        regex = re.compile(pattern, re.M)

        def found(frame):
            m = regex.search(frame)
            return m or None

        return self.wait_for(f"/{pattern}/", found, timeout, on_wait)

    def ever_showed(self, pattern):
        regex = re.compile(pattern, re.M)
        return any(regex.search(f) for f in self.frames())

    def close(self):
        if self.proc.poll() is None:
            try:
                self.type("/quit")
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        try:
            os.close(self.master)
        except OSError:
            pass


def user_messages_with_text(emulator, text):
    """Every server copy of a customer message with exactly this text, on any device."""
    copies = []
    for device in emulator.devices():
        for message in emulator.messages(device["id"]):
            if message.get("sender") == "USER" and message.get("text") == text:
                copies.append(message)
    return copies


def jpeg_base64(width, height, colour):
    from io import BytesIO
    from PIL import Image
    buffer = BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "JPEG", quality=85)
    return base64.b64encode(buffer.getvalue()).decode()
