-- The progress dashboard's aggregates for the last 7 days, computed by the sqlite3 CLI from the
-- same rows (the benchmark's anchor for `cravey progress --json`): counts, hours, weekdays,
-- triggers, places, methods, cravings resisted, the longest and current streak, the first week.
WITH c AS (SELECT julianday(at) AS t, julianday(at) - 2440587.5 + utcOffset / 86400.0 AS lt, * FROM craving
           WHERE at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', 'localtime', 'start of day', '-6 days', 'utc', '-18 hours')
             AND CAST(julianday(at) - 2440587.5 + utcOffset / 86400.0 AS INTEGER) >= CAST(julianday('now', 'localtime') - 2440587.5 AS INTEGER) - 6),
     u AS (SELECT julianday(at) AS t, CAST(julianday(at) - 2440587.5 + utcOffset / 86400.0 AS INTEGER) AS day, * FROM usage),
     today AS (SELECT CAST(julianday('now', 'localtime') - 2440587.5 AS INTEGER) AS day),
     days AS (SELECT DISTINCT day FROM u),
     runs AS (SELECT day - lag(day) OVER (ORDER BY day) - 1 AS run FROM days)
SELECT (SELECT count(*) FROM c),
       (SELECT count(*) FROM u WHERE day >= (SELECT day - 6 FROM today)),
       (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM c GROUP BY CAST((lt - floor(lt)) * 24 AS INTEGER))),
       (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM c GROUP BY (CAST(lt AS INTEGER) + 3) % 7)),
       (SELECT sum(instr(triggers, 'anxious') > 0) || ',' || sum(instr(triggers, 'bored') > 0) || ',' || sum(instr(triggers, 'habit') > 0) FROM c),
       (SELECT group_concat(location || ':' || n) FROM (SELECT location, count(*) AS n FROM c GROUP BY location)),
       (SELECT group_concat(method || ':' || n) FROM (SELECT method, count(*) AS n FROM u WHERE day >= (SELECT day - 6 FROM today) GROUP BY method)),
       (SELECT count(*) FROM c WHERE NOT EXISTS (SELECT 1 FROM usage WHERE usage.cravingId = c.id)
                                 AND NOT EXISTS (SELECT 1 FROM u WHERE u.t BETWEEN c.t AND c.t + 2 / 24.0)),
       (SELECT max(run) FROM runs),
       (SELECT day FROM today) - (SELECT max(day) FROM days),
       (SELECT count(*) FROM u WHERE day <= (SELECT min(day) + 6 FROM u));
