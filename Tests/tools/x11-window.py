#!/usr/bin/env python3
# Asks a window to close the way a window manager does (WM_DELETE_WINDOW), or types a key into
# it, through libX11 (ctypes): for the video window test under Xvfb, which has no window manager.
#   x11-window.py close TITLE-PREFIX  |  x11-window.py key KEYSYM TITLE-PREFIX
import ctypes, ctypes.util, sys, time

x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = ctypes.c_ulong
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
                         ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)), ctypes.POINTER(ctypes.c_uint)]
x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]
x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x.XStringToKeysym.restype = ctypes.c_ulong
x.XStringToKeysym.argtypes = [ctypes.c_char_p]

class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong), ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]

class KeyEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                ("window", ctypes.c_ulong), ("root", ctypes.c_ulong), ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong),
                ("x", ctypes.c_int), ("y", ctypes.c_int), ("x_root", ctypes.c_int), ("y_root", ctypes.c_int),
                ("state", ctypes.c_uint), ("keycode", ctypes.c_uint), ("same_screen", ctypes.c_int)]

class Event(ctypes.Union):
    _fields_ = [("client", ClientMessage), ("key", KeyEvent), ("pad", ctypes.c_long * 24)]

def find(display, window, prefix):
    name = ctypes.c_char_p()
    if x.XFetchName(display, window, ctypes.byref(name)) and name.value and name.value.decode(errors="replace").startswith(prefix):
        return window
    root, parent, children, count = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    if x.XQueryTree(display, window, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children), ctypes.byref(count)):
        for i in range(count.value):
            found = find(display, children[i], prefix)
            if found: return found
    return None

action, args = sys.argv[1], sys.argv[2:]
display = x.XOpenDisplay(None)
if not display: sys.exit("no display")
prefix = args[-1]
window = None
for _ in range(100):
    window = find(display, x.XDefaultRootWindow(display), prefix)
    if window: break
    time.sleep(0.1)
if not window: sys.exit(f"no window titled {prefix!r}")
event = Event()
if action == "close":
    event.client.type = 33  # ClientMessage
    event.client.window = window
    event.client.message_type = x.XInternAtom(display, b"WM_PROTOCOLS", 0)
    event.client.format = 32
    event.client.data[0] = x.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    x.XSendEvent(display, window, 0, 0, ctypes.byref(event))
else:
    for kind in (2, 3):  # KeyPress, KeyRelease
        event.key.type = kind
        event.key.window = window
        event.key.root = x.XDefaultRootWindow(display)
        event.key.same_screen = 1
        event.key.keycode = x.XKeysymToKeycode(display, x.XStringToKeysym(args[0].encode()))
        x.XSendEvent(display, window, 1, 1 if kind == 2 else 2, ctypes.byref(event))  # KeyPressMask / KeyReleaseMask
x.XFlush(display)
