#!/usr/bin/env python3
"""Logs six weeks of sample cravings and uses through the cravey binary, ending now, so the
progress dashboard has something to show (the guide's screens in docs/GUIDE.md, the screen and page tests).

usage: sample-logs.py CRAVEY LIBRARY"""
import datetime
import random
import subprocess
import sys

cravey, library = sys.argv[1], sys.argv[2]
rng = random.Random(23)
now = datetime.datetime.now().replace(second=0, microsecond=0)
triggers = ["anxious", "anxious", "bored", "tired", "social", "habit", "lonely"]
places = ["home", "home", "home", "work", "social", "outside"]


def run(*args):
    subprocess.run([cravey, *args, "--library", library], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


for days_ago in range(41, -1, -1):
    day = now - datetime.timedelta(days=days_ago)
    for _ in range(rng.randint(1, 3)):
        at = day.replace(hour=rng.choice([8, 13, 17, 20, 21, 21, 22, 23]), minute=rng.randint(0, 59))
        if at > now:
            continue
        intensity = max(1, min(10, round(8 - (41 - days_ago) / 12 + rng.randint(-1, 1))))
        run("craving", str(intensity), "--at", at.strftime("%Y-%m-%d %H:%M"), "--trigger", rng.choice(triggers),
            "--location", rng.choice(places))
    if rng.random() < 0.55 - (41 - days_ago) / 70:
        at = day.replace(hour=22, minute=rng.randint(0, 59))
        if at <= now:
            method, amount = rng.choice([("bowls", "1"), ("bowls", "0.5"), ("vape", "4"), ("edible", "10")])
            run("use", method, amount, "--at", at.strftime("%Y-%m-%d %H:%M"), "--location", rng.choice(places))
