-- What `cravey status` reads, as the sqlite3 CLI runs it (Tests/bench/status.sh): the schema's
-- tables, the first and last days on the logs' own clocks, the first message, today's cravings
-- with whether a use follows each, today's uses, and the milestones stored.
SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('craving', 'milestone');
SELECT min(CAST(floor(julianday(at) - 2440587.5 + utcOffset / 86400.0) AS INTEGER)) FROM craving
WHERE at <= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(at), '+36 hours') FROM craving);
SELECT min(CAST(floor(julianday(at) - 2440587.5 + utcOffset / 86400.0) AS INTEGER)) FROM usage
WHERE at <= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(at), '+36 hours') FROM usage);
SELECT max(CAST(floor(julianday(at) - 2440587.5 + utcOffset / 86400.0) AS INTEGER)) FROM usage
WHERE at >= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', max(at), '-36 hours') FROM usage);
SELECT min(createdAt) FROM recording;
SELECT CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER), utcOffset,
       EXISTS (SELECT 1 FROM usage WHERE usage.cravingId = craving.id)
FROM craving WHERE at >= strftime('%Y-%m-%dT%H:%M:%fZ', date('now', 'localtime'), '-18 hours') ORDER BY at;
SELECT CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER) FROM usage
WHERE at >= strftime('%Y-%m-%dT%H:%M:%fZ', date('now', 'localtime'), '-18 hours') ORDER BY at;
SELECT kind, count, reachedOn, shownAt FROM milestone ORDER BY reachedOn, kind, count;
