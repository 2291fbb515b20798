"""cravey's Whisper helper: offline speech recognition of sound cravey has already decoded.

cravey runs this program with the private environment's interpreter (`python -I`), one process for
as many recordings as it has to transcribe, and talks to it through pipes:

  argv    --model DIR --sha256 HEX [--threads N]
  stdout  first one line: {"ready": {"engine": ..., "model": ..., "load": seconds}}
          or {"error": "..."} and exit status 2 (model missing, its checksum wrong, engine broken)
  stdin   per recording: a line "pcm SAMPLES\\n", then SAMPLES 16-bit little-endian samples,
          16 kHz, mono; end of input ends the program
  stdout  per recording: one line per stretch of speech as it is recognized
          {"segment": {"start": s, "end": s, "text": "...", "words": [[word, start, end], ...]}}
          then {"done": {"seconds": duration}}, or {"failed": "..."}

Nothing here touches the network: the model is opened from its directory by path (never by a
name a hub would resolve), the hub's offline switches are set before anything is imported, and
an audit hook makes any network socket or name lookup from Python fail. cravey gives the helper
a private folder (HOME, XDG folders, caches, TMPDIR; named by CRAVEY_HELPER_FOLDER) and removes it
when the helper ends; when cravey itself ends first, however it ends, the kernel ends the helper
at once and the helper's small watcher removes that folder (a stopped transcript leaves no helper
and no folder behind).
"""
import hashlib
import json
import os
import shutil
import signal
import sys
import time

# The offline switches, before any library that could look at them is loaded.
for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY", "HF_DATASETS_OFFLINE"):
    os.environ[name] = "1"
os.environ.setdefault("OMP_NUM_THREADS", "1")

RATE = 16000


def emit(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


# Socket families that reach a network: AF_INET, AF_INET6, AF_NETLINK (by number: the socket
# module is not imported for them).
NETWORK_FAMILIES = (2, 10, 16)
NETWORK_EVENTS = ("socket.connect", "socket.bind", "socket.getaddrinfo", "socket.gethostbyname",
                  "socket.gethostbyaddr", "socket.sendto", "urllib.Request", "http.client.connect")


def refuse_network():
    """Makes every attempt at the network from Python code in this process fail at once (an
    audit hook: it cannot be removed), whatever a library imported later would try."""
    def hook(event, args):
        if event == "socket.__new__" and len(args) > 1 and args[1] in NETWORK_FAMILIES:
            raise PermissionError("cravey's Whisper helper has no network")
        if event in NETWORK_EVENTS:
            if event in ("socket.connect", "socket.bind", "socket.sendto") and getattr(args[0], "family", 0) == 1:
                return  # a local (AF_UNIX) socket is not the network
            raise PermissionError("cravey's Whisper helper has no network")

    sys.addaudithook(hook)


def leave(*_):
    """Ends this helper at once, its private folder removed."""
    folder = os.environ.get("CRAVEY_HELPER_FOLDER", "")
    if os.path.basename(folder).startswith("cravey-helper-"):
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)


def die_with_parent():
    """Ends this process the moment cravey ends, however it ends (even SIGKILL): the kernel kills
    it then, whatever it is computing. A small watcher forked first (holding nothing of the
    helper's pipes) removes the private folder once this process is gone, however it went."""
    parent = os.getppid()
    folder = os.environ.get("CRAVEY_HELPER_FOLDER", "")
    if os.path.basename(folder).startswith("cravey-helper-"):
        gone, alive = os.pipe()  # the watcher reads end of file when the helper's end closes
        if os.fork() == 0:
            os.close(alive)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.set_inheritable(gone, True)
            # A program of its own (its command line does not name this helper), nothing imported.
            watcher = "import os,shutil,sys\ntry: os.read(int(sys.argv[1]), 1)\nfinally: shutil.rmtree(sys.argv[2], True)"
            try:
                os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", watcher, str(gone), folder])
            finally:
                os._exit(0)
        os.close(gone)
    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGHUP, leave)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass
    if parent == 1 or os.getppid() != parent:
        leave()


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def arguments(argv):
    values = {"--threads": "2"}
    i = 0
    while i < len(argv):
        if argv[i] in ("--model", "--sha256", "--threads") and i + 1 < len(argv):
            values[argv[i]] = argv[i + 1]
            i += 2
        else:
            raise SystemExit("cravey-whisper: unknown argument %r" % argv[i])
    if "--model" not in values or "--sha256" not in values:
        raise SystemExit("cravey-whisper: --model DIR and --sha256 HEX are required")
    return values


def load(values):
    directory = values["--model"]
    weights = os.path.join(directory, "model.bin")
    if not os.path.isfile(weights):
        raise RuntimeError("no Whisper model in %s" % directory)
    if sha256(weights) != values["--sha256"].lower():
        raise RuntimeError("the Whisper model's checksum does not match (%s); it is not used" % weights)
    import faster_whisper

    model = faster_whisper.WhisperModel(
        directory, device="cpu", compute_type="int8", cpu_threads=int(values["--threads"]), local_files_only=True
    )
    return model, "faster-whisper %s" % faster_whisper.__version__


def read_exactly(stream, count):
    chunks, left = [], count
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            raise EOFError("the sound ended early")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def transcribe(model, samples):
    import numpy as np

    audio = np.frombuffer(samples, dtype="<i2").astype(np.float32) / 32768.0
    segments, _ = model.transcribe(
        audio,
        language="en",
        beam_size=5,
        word_timestamps=True,
        # Each window stands alone: a misheard window cannot lead the next into a loop.
        condition_on_previous_text=False,
        vad_filter=False,
    )
    for segment in segments:
        words = [[w.word.strip(), round(w.start, 3), round(w.end, 3)] for w in (segment.words or []) if w.word.strip()]
        emit({"segment": {"start": round(segment.start, 3), "end": round(segment.end, 3),
                          "text": segment.text.strip(), "words": words}})
    emit({"done": {"seconds": round(len(audio) / RATE, 3)}})


def main():
    refuse_network()
    die_with_parent()
    values = arguments(sys.argv[1:])
    started = time.monotonic()
    try:
        model, engine = load(values)
    except Exception as error:
        emit({"error": str(error) or type(error).__name__})
        return 2
    emit({"ready": {"engine": engine, "model": os.path.basename(os.path.normpath(values["--model"])),
                    "load": round(time.monotonic() - started, 3)}})
    stdin = sys.stdin.buffer
    while True:
        header = stdin.readline()
        if not header:
            return 0
        parts = header.split()
        if len(parts) != 2 or parts[0] != b"pcm" or not parts[1].isdigit():
            emit({"failed": "unreadable request"})
            return 2
        try:
            samples = read_exactly(stdin, int(parts[1]) * 2)
        except EOFError:
            return 0
        try:
            transcribe(model, samples)
        except Exception as error:
            emit({"failed": str(error) or type(error).__name__})


if __name__ == "__main__":
    sys.exit(main())
