import FoundationEssentials
import Glibc
import GRDB

/// The library's schema: migrations written as SQL strings, which never change once shipped (a
/// new one is added below the last). They use no app type, so an old library migrates the same
/// way whatever the code around them becomes.
extension Store {
    /// Migrations are written as SQL strings and never change once shipped; add new ones below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: recordings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recording (
                      id TEXT PRIMARY KEY NOT NULL,
                      createdAt TEXT NOT NULL,
                      kind TEXT NOT NULL CHECK (kind IN ('audio', 'video')),
                      title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 400),
                      notes TEXT,
                      purpose TEXT CHECK (purpose IN ('motivational', 'milestone', 'reflection', 'craving')),
                      duration REAL NOT NULL CHECK (duration > 0 AND duration <= 120),
                      filePath TEXT NOT NULL UNIQUE,
                      thumbnailPath TEXT,
                      playCount INTEGER NOT NULL DEFAULT 0 CHECK (playCount >= 0),
                      lastPlayedAt TEXT,
                      modifiedAt TEXT NOT NULL,
                      sizeBytes INTEGER NOT NULL DEFAULT 0,
                      width INTEGER,
                      height INTEGER,
                      fps REAL,
                      sampleRate INTEGER,
                      channels INTEGER,
                      waveform BLOB,
                      avOffset REAL
                    );
                    CREATE INDEX recording_newest ON recording(createdAt DESC, id DESC);
                    CREATE INDEX recording_kind_newest ON recording(kind, createdAt DESC, id DESC);
                    CREATE INDEX recording_purpose_newest ON recording(purpose, createdAt DESC, id DESC);
                    CREATE INDEX recording_top ON recording(playCount DESC, lastPlayedAt DESC, createdAt DESC, id DESC);

                    -- Intent journal of saves: a file renamed into Recordings/ whose row is not
                    -- committed yet. The row's commit deletes the entry in the same transaction.
                    CREATE TABLE pendingSave (
                      path TEXT PRIMARY KEY NOT NULL,
                      createdAt TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: loudness") { db in
            // EBU R128 integrated loudness (LUFS, NULL when too quiet to have one), true peak
            // (dBTP) and the gain that plays it at the common level (dB); NULL until measured.
            try db.execute(
                sql: """
                    ALTER TABLE recording ADD COLUMN loudness REAL;
                    ALTER TABLE recording ADD COLUMN truePeak REAL;
                    ALTER TABLE recording ADD COLUMN playbackGain REAL;

                    -- Intent journal of replacements (trims): a recording whose file is being replaced
                    -- and whose new row is not committed yet. The row's commit deletes the entry.
                    CREATE TABLE pendingReplace (
                      id TEXT PRIMARY KEY NOT NULL,
                      createdAt TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: check-ins") { db in
            // A day's check-in is a recording marked with its local day (unique: one a day), the
            // mood chosen and the prompt shown. Messages are the rows without a day.
            try db.execute(
                sql: """
                    ALTER TABLE recording ADD COLUMN checkinDay TEXT;
                    ALTER TABLE recording ADD COLUMN mood TEXT CHECK (mood IN ('low', 'down', 'okay', 'happy', 'amazing'));
                    ALTER TABLE recording ADD COLUMN prompt TEXT;
                    CREATE UNIQUE INDEX recording_checkin ON recording(checkinDay);

                    -- What a day's check-in flow has seen: the prompt chosen for the day (the same all
                    -- day), whether the greeting was shown, whether it was put off ("Later"), and the
                    -- recording being made for it (with its mood): when that recording is saved, by
                    -- the flow or by recovery after a crash, its row becomes the day's entry.
                    CREATE TABLE checkinDay (
                      day TEXT PRIMARY KEY NOT NULL,
                      prompt TEXT,
                      greetedAt TEXT,
                      postponedAt TEXT,
                      pendingId TEXT UNIQUE,
                      pendingMood TEXT CHECK (pendingMood IN ('low', 'down', 'okay', 'happy', 'amazing'))
                    );

                    -- The user's settings (the name in the greeting).
                    CREATE TABLE setting (
                      key TEXT PRIMARY KEY NOT NULL,
                      value TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v4: transcripts") { db in
            try db.execute(sql: Self.transcriptSchema)
            try db.execute(
                sql:
                    "INSERT INTO recordingSearch (rowid, title, notes, transcript) SELECT rowid, title, coalesce(notes, ''), '' FROM recording"
            )
        }
        migrator.registerMigration("v5: cravings and use") { db in
            try db.execute(sql: Self.logSchema)
        }
        migrator.registerMigration("v6: transcript queue") { db in
            try db.execute(sql: Self.transcriptQueueSchema)
        }
        migrator.registerMigration("v7: files' own tags") { db in
            try db.execute(sql: Self.pendingTagsSchema)
            // Files saved before cravey wrote tags get theirs.
            try db.execute(sql: "INSERT INTO pendingTags (recordingId, version) SELECT id, 1 FROM recording")
        }
        migrator.registerMigration("v8: deleted logs leave the snapshots") { db in
            try db.execute(sql: Self.logScrubSchema)
        }
        migrator.registerMigration("v9: the journal of logs and settings") { db in
            try db.execute(sql: Self.journalSchema)
        }
        migrator.registerMigration("v10: scrubbed entries named as such") { db in
            // pendingScrub holds recordings' ids and 'craving:<id>' / 'use:<id>' since v8: its column
            // is named for what it holds. SQLite rewrites the triggers that name it.
            try db.execute(sql: "ALTER TABLE pendingScrub RENAME COLUMN recordingId TO entryId")
        }
        migrator.registerMigration("v11: rides, messages that help, milestones") { db in
            try db.execute(sql: Self.rideSchema)
        }
        migrator.registerMigration("v12: if-then plans") { db in
            try db.execute(sql: Self.planSchema)
        }
        migrator.registerMigration("v13: days that are known") { db in
            try db.execute(sql: Self.dayMarkSchema)
        }
        migrator.registerMigration("v14: withdrawal checks") { db in
            try db.execute(sql: Self.withdrawalSchema)
        }
        migrator.registerMigration("v15: self-screens") { db in
            try db.execute(sql: Self.selfScreenSchema)
        }
        migrator.registerMigration("v16: limits") { db in
            try db.execute(sql: Self.limitSchema)
        }
        migrator.registerMigration("v17: sync") { db in
            try db.execute(sql: Self.syncSchema)
        }
        migrator.registerMigration("v18: shared recordings") { db in
            try db.execute(sql: Self.sharedRecordingSchema)
        }
        migrator.registerMigration("v19: plays per device") { db in
            try db.execute(sql: Library.playsSchema)
        }
        migrator.registerMigration("v20: the logs' search keyed by row") { db in
            try db.execute(sql: Self.logSearchByRowSchema)
        }
        return migrator
    }

    /// The search over the logs' notes keyed by each log's own row (migration v20): a craving's
    /// entry under twice its rowid, a use's under twice its rowid plus one, so an edit or a delete
    /// finds its entry at once (v5 looked it up by id, an unindexed column: the whole index read
    /// for every edited or deleted log). The index is made again from the logs themselves.
    private static let logSearchByRowSchema = """
        DROP TRIGGER craving_search_insert;
        DROP TRIGGER craving_search_update;
        DROP TRIGGER craving_search_delete;
        DROP TRIGGER usage_search_insert;
        DROP TRIGGER usage_search_update;
        DROP TRIGGER usage_search_delete;
        DROP TABLE logSearch;
        CREATE VIRTUAL TABLE logSearch USING fts5(
          notes, kind UNINDEXED, logId UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO logSearch (rowid, notes, kind, logId)
          SELECT rowid * 2, notes, 'craving', id FROM craving WHERE notes IS NOT NULL;
        INSERT INTO logSearch (rowid, notes, kind, logId)
          SELECT rowid * 2 + 1, notes, 'use', id FROM usage WHERE notes IS NOT NULL;
        CREATE TRIGGER craving_search_insert AFTER INSERT ON craving WHEN new.notes IS NOT NULL BEGIN
          INSERT INTO logSearch (rowid, notes, kind, logId) VALUES (new.rowid * 2, new.notes, 'craving', new.id);
        END;
        CREATE TRIGGER craving_search_update AFTER UPDATE OF notes ON craving BEGIN
          DELETE FROM logSearch WHERE rowid = old.rowid * 2;
          INSERT INTO logSearch (rowid, notes, kind, logId)
            SELECT new.rowid * 2, new.notes, 'craving', new.id WHERE new.notes IS NOT NULL;
        END;
        CREATE TRIGGER craving_search_delete AFTER DELETE ON craving BEGIN
          DELETE FROM logSearch WHERE rowid = old.rowid * 2;
        END;
        CREATE TRIGGER usage_search_insert AFTER INSERT ON usage WHEN new.notes IS NOT NULL BEGIN
          INSERT INTO logSearch (rowid, notes, kind, logId) VALUES (new.rowid * 2 + 1, new.notes, 'use', new.id);
        END;
        CREATE TRIGGER usage_search_update AFTER UPDATE OF notes ON usage BEGIN
          DELETE FROM logSearch WHERE rowid = old.rowid * 2 + 1;
          INSERT INTO logSearch (rowid, notes, kind, logId)
            SELECT new.rowid * 2 + 1, new.notes, 'use', new.id WHERE new.notes IS NOT NULL;
        END;
        CREATE TRIGGER usage_search_delete AFTER DELETE ON usage BEGIN
          DELETE FROM logSearch WHERE rowid = old.rowid * 2 + 1;
        END;
        """

    /// Recordings shared through the sync folder (migration v18); see `SyncMedia.swift`.
    private static let sharedRecordingSchema = """
        -- A day holds one check-in a machine: '' for this machine's, else the device id of the
        -- machine that made it (both are kept; an entry is never merged into another).
        ALTER TABLE recording ADD COLUMN checkinFrom TEXT NOT NULL DEFAULT '';
        DROP INDEX recording_checkin;
        CREATE UNIQUE INDEX recording_checkin ON recording(checkinDay, checkinFrom);
        -- A recording's change line from another machine, taken in but not applied yet: its file
        -- has not come into the folder whole (a sync tool still copying it).
        CREATE TABLE syncRecordingWaiting (
          device TEXT NOT NULL,
          counter INTEGER NOT NULL,
          id TEXT NOT NULL,
          line TEXT NOT NULL,
          -- A snapshot's lines share one counter: each line is its own row, the same line once.
          PRIMARY KEY (device, counter, id, line)
        );
        """

    /// This machine's side of a shared sync folder (migration v17); see `Sync.swift`.
    private static let syncSchema = """
        -- The device id, the folder, the last counter, the bytes written and the hybrid clock
        -- ('refused <device> <n>': a change from the folder that was not applied, in words).
        CREATE TABLE syncState (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        );
        -- Each shared field as last taken, with the stamp that won it ('-': the log is deleted).
        CREATE TABLE syncField (
          kind TEXT NOT NULL,
          id TEXT NOT NULL,
          field TEXT NOT NULL,
          value,
          at INTEGER NOT NULL,
          tick INTEGER NOT NULL,
          device TEXT NOT NULL,
          PRIMARY KEY (kind, id, field)
        ) WITHOUT ROWID;
        -- This machine's change lines not yet in the folder (an unplugged stick).
        CREATE TABLE syncOutbox (
          counter INTEGER PRIMARY KEY,
          line TEXT NOT NULL
        );
        -- How far each other device's change file has been taken in.
        CREATE TABLE syncSeen (
          device TEXT PRIMARY KEY NOT NULL,
          counter INTEGER NOT NULL,
          bytes INTEGER NOT NULL
        );
        """

    /// The person's if-then plans (migration v12).
    private static let planSchema = """
        -- An if-then plan typed by the person: for a trigger (only at a place, or only in an hour of
        -- the day, when given), what they will do instead (one sentence) and a message of theirs to
        -- play (cleared when that recording is deleted). At most 10: the code holds the count.
        -- Journaled as the logs are.
        CREATE TABLE plan (
          id TEXT PRIMARY KEY NOT NULL,
          forTrigger TEXT NOT NULL CHECK (forTrigger IN ('hungry', 'angry', 'anxious', 'lonely', 'tired', 'sad', 'bored', 'social', 'habit', 'paraphernalia')),
          location TEXT CHECK (location IN ('home', 'work', 'social', 'outside', 'car')),
          hour INTEGER CHECK (hour BETWEEN 0 AND 23),
          instead TEXT NOT NULL CHECK (length(instead) BETWEEN 1 AND 200),
          recordingId TEXT REFERENCES recording(id) ON DELETE SET NULL,
          createdAt TEXT NOT NULL
        );
        CREATE TRIGGER plan_journal_insert AFTER INSERT ON plan BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('plan', new.id);
        END;
        CREATE TRIGGER plan_journal_update AFTER UPDATE ON plan BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('plan', new.id);
        END;
        CREATE TRIGGER plan_journal_delete AFTER DELETE ON plan BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('plan', old.id);
        END;
        -- A removed plan leaves the daily snapshots as a deleted log does.
        CREATE TRIGGER plan_scrub_delete AFTER DELETE ON plan BEGIN
          INSERT OR IGNORE INTO pendingScrub (entryId) VALUES ('plan:' || old.id);
        END;
        """

    /// A craving ridden out and the messages played in it, what a message was made for, and the
    /// milestones reached (migration v11).
    private static let rideSchema = """
        -- How strong a craving ridden out was as it went: a JSON array of [seconds after the
        -- craving's time, 1-10], the first the logged intensity; NULL for a craving not ridden.
        ALTER TABLE craving ADD COLUMN ratings TEXT CHECK (ratings IS NULL OR json_valid(ratings));
        -- Every message played during the craving, in the order played: recordings' ids separated
        -- by commas ('' for none). A deleted recording leaves the list (the trigger below).
        ALTER TABLE craving ADD COLUMN played TEXT NOT NULL DEFAULT '';
        UPDATE craving SET played = recordingId WHERE recordingId IS NOT NULL;
        CREATE TRIGGER recording_played_delete AFTER DELETE ON recording BEGIN
          UPDATE craving SET played = trim(replace(',' || played || ',', ',' || old.id || ',', ','), ',')
          WHERE instr(played, old.id) > 0;
        END;

        -- The triggers a message was made for, as a craving's are written ('' for none); its
        -- file's tags carry them too.
        ALTER TABLE recording ADD COLUMN forTriggers TEXT NOT NULL DEFAULT '' CHECK (\(triggerCheck.replacing("triggers", with: "forTriggers")));
        CREATE TRIGGER recording_tags_update_for AFTER UPDATE OF forTriggers ON recording BEGIN
          INSERT INTO pendingTags (recordingId, version) VALUES (new.id, 1)
            ON CONFLICT (recordingId) DO UPDATE SET version = version + 1;
        END;

        -- A milestone reached, kept with the day it was reached so that it never breaks: 'kind'
        -- is what was counted, 'count' how many; 'id' is kind ':' count. 'shownAt' is when home
        -- showed it (once). Journaled as the logs are.
        CREATE TABLE milestone (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('daysInProgress', 'cravingsResisted', 'messagesRecorded', 'checkIns', 'daysSinceUse')),
          count INTEGER NOT NULL CHECK (count > 0),
          reachedOn TEXT NOT NULL CHECK (reachedOn GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          shownAt TEXT,
          CHECK (id = kind || ':' || count)
        );
        CREATE TRIGGER milestone_journal_insert AFTER INSERT ON milestone BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('milestone', new.id);
        END;
        CREATE TRIGGER milestone_journal_update AFTER UPDATE ON milestone BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('milestone', new.id);
        END;
        CREATE TRIGGER milestone_journal_delete AFTER DELETE ON milestone BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('milestone', old.id);
        END;
        """

    /// The recordings whose file's tags are behind their row (migration v7).
    private static let pendingTagsSchema = """
        -- A recording whose file's own tags (its title, notes, purpose, dates, check-in and
        -- transcript) are to be written again: noted by these triggers in the same transaction as
        -- the change, removed once the file with its new tags has replaced the old one. 'version'
        -- counts the changes, so a change made while the tags were being written is not lost.
        CREATE TABLE pendingTags (
          recordingId TEXT PRIMARY KEY NOT NULL REFERENCES recording(id) ON DELETE CASCADE,
          version INTEGER NOT NULL
        );
        CREATE TRIGGER recording_tags_insert AFTER INSERT ON recording BEGIN
          INSERT INTO pendingTags (recordingId, version) VALUES (new.id, 1)
            ON CONFLICT (recordingId) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER recording_tags_update AFTER UPDATE OF title, notes, purpose, createdAt, modifiedAt, duration, checkinDay, mood, prompt ON recording BEGIN
          INSERT INTO pendingTags (recordingId, version) VALUES (new.id, 1)
            ON CONFLICT (recordingId) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER transcript_tags_insert AFTER INSERT ON transcript WHEN new.state = 'done' BEGIN
          INSERT INTO pendingTags (recordingId, version) VALUES (new.recordingId, 1)
            ON CONFLICT (recordingId) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER transcript_tags_update AFTER UPDATE ON transcript WHEN new.state = 'done' BEGIN
          INSERT INTO pendingTags (recordingId, version) VALUES (new.recordingId, 1)
            ON CONFLICT (recordingId) DO UPDATE SET version = version + 1;
        END;
        CREATE TRIGGER recording_tags_delete AFTER DELETE ON recording BEGIN
          DELETE FROM pendingTags WHERE recordingId = old.id;
        END;

        -- A deleted recording whose row (title, notes, transcript) is still to be removed from the
        -- daily snapshots: noted in the delete's transaction, removed once every snapshot is clean.
        CREATE TABLE pendingScrub (
          recordingId TEXT PRIMARY KEY NOT NULL
        );
        CREATE TRIGGER recording_scrub_delete AFTER DELETE ON recording BEGIN
          INSERT OR IGNORE INTO pendingScrub (recordingId) VALUES (old.id);
        END;
        """

    /// Logs and settings noted for the journal beside the database (migration v9).
    private static let journalSchema = """
        -- A craving, use or setting changed since the journal was last appended to: noted by these
        -- triggers in the change's own transaction, removed once the row as it stands is in the
        -- journal, fsynced. 'kind' is 'craving', 'use' or 'setting'; 'id' the row's id or key.
        CREATE TABLE pendingJournal (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          id TEXT NOT NULL
        );
        CREATE TRIGGER craving_journal_insert AFTER INSERT ON craving BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('craving', new.id);
        END;
        CREATE TRIGGER craving_journal_update AFTER UPDATE ON craving BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('craving', new.id);
        END;
        CREATE TRIGGER craving_journal_delete AFTER DELETE ON craving BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('craving', old.id);
        END;
        CREATE TRIGGER usage_journal_insert AFTER INSERT ON usage BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('use', new.id);
        END;
        CREATE TRIGGER usage_journal_update AFTER UPDATE ON usage BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('use', new.id);
        END;
        CREATE TRIGGER usage_journal_delete AFTER DELETE ON usage BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('use', old.id);
        END;
        CREATE TRIGGER setting_journal_insert AFTER INSERT ON setting BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('setting', new.key);
        END;
        CREATE TRIGGER setting_journal_update AFTER UPDATE ON setting BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('setting', new.key);
        END;
        CREATE TRIGGER setting_journal_delete AFTER DELETE ON setting BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('setting', old.key);
        END;
        -- What was logged before the journal is journaled once.
        INSERT INTO pendingJournal (kind, id) SELECT 'craving', id FROM craving;
        INSERT INTO pendingJournal (kind, id) SELECT 'use', id FROM usage;
        INSERT INTO pendingJournal (kind, id) SELECT 'setting', key FROM setting;
        """

    /// Deleted logs noted for removal from the snapshots (migration v8).
    private static let logScrubSchema = """
        -- A deleted craving or use is removed from the daily snapshots as a deleted recording is:
        -- noted in the delete's transaction, as 'craving:<id>' or 'use:<id>'.
        CREATE TRIGGER craving_scrub_delete AFTER DELETE ON craving BEGIN
          INSERT OR IGNORE INTO pendingScrub (recordingId) VALUES ('craving:' || old.id);
        END;
        CREATE TRIGGER usage_scrub_delete AFTER DELETE ON usage BEGIN
          INSERT OR IGNORE INTO pendingScrub (recordingId) VALUES ('use:' || old.id);
        END;
        """

    /// The transcripts waiting for the background worker (migration v6).
    private static let transcriptQueueSchema = """
        -- A recording whose transcript is to be made by the background worker, oldest first: queued
        -- after a save, an import, a trim, a recovery or a check-in, or by 'cravey transcribe'. The
        -- row goes in the transaction that stores the transcript (made or unavailable), or with its
        -- recording; a worker that dies leaves it here, to be made by the next one. 'engine' is
        -- the engine asked for ('whisper' or 'pocketsphinx'), or NULL for the best there is.
        CREATE TABLE transcriptJob (
          recordingId TEXT PRIMARY KEY NOT NULL REFERENCES recording(id) ON DELETE CASCADE,
          queuedAt TEXT NOT NULL,
          engine TEXT CHECK (engine IN ('whisper', 'pocketsphinx'))
        );
        CREATE TRIGGER recording_transcript_job_delete AFTER DELETE ON recording BEGIN
          DELETE FROM transcriptJob WHERE recordingId = old.id;
        END;
        """

    /// The craving and use logs (migration v5). Every range and set is a CHECK, so no program
    /// writing the file can store a log cravey would refuse (`check` still reads every row: a
    /// program can switch the checks off). Times are instants (UTC, milliseconds) with the UTC
    /// offset of the place they were logged in, so a log keeps its wall-clock hour across a
    /// change of clocks or of time zone. Triggers are a set written as names in a fixed order,
    /// separated by commas ('' for none).
    private static let logSchema = """
        CREATE TABLE craving (
          id TEXT PRIMARY KEY NOT NULL,
          at TEXT NOT NULL,
          utcOffset INTEGER NOT NULL CHECK (utcOffset BETWEEN -64800 AND 64800),
          intensity INTEGER NOT NULL CHECK (intensity BETWEEN 1 AND 10),
          triggers TEXT NOT NULL DEFAULT '' CHECK (\(triggerCheck)),
          location TEXT CHECK (location IN ('home', 'work', 'social', 'outside', 'car')),
          notes TEXT CHECK (length(notes) BETWEEN 1 AND 500),
          -- The message played during the craving; cleared when that recording is deleted.
          recordingId TEXT REFERENCES recording(id) ON DELETE SET NULL,
          createdAt TEXT NOT NULL,
          modifiedAt TEXT NOT NULL
        );
        CREATE INDEX craving_newest ON craving(at DESC, id DESC);
        CREATE INDEX craving_recording ON craving(recordingId);

        CREATE TABLE usage (
          id TEXT PRIMARY KEY NOT NULL,
          at TEXT NOT NULL,
          utcOffset INTEGER NOT NULL CHECK (utcOffset BETWEEN -64800 AND 64800),
          -- bowls (also joints and blunts) 0.5–5 in halves; vape 1–10 pulls; dab 1–5 dabs;
          -- edible 5–100 mg THC in fives.
          method TEXT NOT NULL CHECK (method IN ('bowls', 'vape', 'dab', 'edible')),
          amount REAL NOT NULL CHECK (
            (method = 'bowls' AND amount BETWEEN 0.5 AND 5 AND amount * 2 = CAST(amount * 2 AS INTEGER))
            OR (method = 'vape' AND amount BETWEEN 1 AND 10 AND amount = CAST(amount AS INTEGER))
            OR (method = 'dab' AND amount BETWEEN 1 AND 5 AND amount = CAST(amount AS INTEGER))
            OR (method = 'edible' AND amount BETWEEN 5 AND 100 AND amount / 5 = CAST(amount / 5 AS INTEGER))),
          triggers TEXT NOT NULL DEFAULT '' CHECK (\(triggerCheck)),
          location TEXT CHECK (location IN ('home', 'work', 'social', 'outside', 'car')),
          notes TEXT CHECK (length(notes) BETWEEN 1 AND 500),
          moodAfter INTEGER CHECK (moodAfter BETWEEN 1 AND 10),
          -- The craving this use followed; cleared when that craving is deleted on its own.
          cravingId TEXT REFERENCES craving(id) ON DELETE SET NULL,
          createdAt TEXT NOT NULL,
          modifiedAt TEXT NOT NULL
        );
        CREATE INDEX usage_newest ON usage(at DESC, id DESC);
        CREATE INDEX usage_craving ON usage(cravingId);

        -- Search over the logs' notes, kept in step by the triggers below.
        CREATE VIRTUAL TABLE logSearch USING fts5(
          notes, kind UNINDEXED, logId UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER craving_search_insert AFTER INSERT ON craving WHEN new.notes IS NOT NULL BEGIN
          INSERT INTO logSearch (notes, kind, logId) VALUES (new.notes, 'craving', new.id);
        END;
        CREATE TRIGGER craving_search_update AFTER UPDATE OF notes ON craving BEGIN
          DELETE FROM logSearch WHERE kind = 'craving' AND logId = old.id;
          INSERT INTO logSearch (notes, kind, logId) SELECT new.notes, 'craving', new.id WHERE new.notes IS NOT NULL;
        END;
        CREATE TRIGGER craving_search_delete AFTER DELETE ON craving BEGIN
          DELETE FROM logSearch WHERE kind = 'craving' AND logId = old.id;
        END;
        CREATE TRIGGER usage_search_insert AFTER INSERT ON usage WHEN new.notes IS NOT NULL BEGIN
          INSERT INTO logSearch (notes, kind, logId) VALUES (new.notes, 'use', new.id);
        END;
        CREATE TRIGGER usage_search_update AFTER UPDATE OF notes ON usage BEGIN
          DELETE FROM logSearch WHERE kind = 'use' AND logId = old.id;
          INSERT INTO logSearch (notes, kind, logId) SELECT new.notes, 'use', new.id WHERE new.notes IS NOT NULL;
        END;
        CREATE TRIGGER usage_search_delete AFTER DELETE ON usage BEGIN
          DELETE FROM logSearch WHERE kind = 'use' AND logId = old.id;
        END;
        """

    /// Triggers hold nothing but names from the set, each followed by a comma once one is added
    /// at the end (the code writes each once, in the set's order; `check` reads that too).
    /// Spelled out so that the migration never changes with the code.
    private static let triggerCheck = """
        triggers = '' OR replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(triggers || ',', \
        'hungry,', ''), 'angry,', ''), 'anxious,', ''), 'lonely,', ''), 'tired,', ''), 'sad,', ''), 'bored,', ''), \
        'social,', ''), 'habit,', ''), 'paraphernalia,', '') = ''
        """

    /// The transcripts and the search index over titles, notes and transcripts (migration v4).
    private static let transcriptSchema = """
        -- A recording's transcript, an automatic draft made after its save: 'done' (its text, a
        -- line per stretch of speech, and its words with their times as JSON [[word, start, end]])
        -- or 'unavailable' (the recognizer failed; the problem is kept and it is tried again
        -- later). A recording without a row has no transcript yet. Deleted with its recording.
        CREATE TABLE transcript (
          recordingId TEXT PRIMARY KEY NOT NULL REFERENCES recording(id) ON DELETE CASCADE,
          state TEXT NOT NULL CHECK (state IN ('done', 'unavailable')),
          text TEXT NOT NULL DEFAULT '',
          words TEXT NOT NULL DEFAULT '[]',
          engine TEXT NOT NULL,
          model TEXT NOT NULL,
          madeAt TEXT NOT NULL,
          problem TEXT
        );

        -- Full-text search: one row per recording, with the recording's rowid, kept in step by the
        -- triggers below inside the same transactions as the rows they follow.
        CREATE VIRTUAL TABLE recordingSearch USING fts5(
          title, notes, transcript, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER recording_search_insert AFTER INSERT ON recording BEGIN
          INSERT INTO recordingSearch (rowid, title, notes, transcript) VALUES (new.rowid, new.title, coalesce(new.notes, ''), '');
        END;
        CREATE TRIGGER recording_search_update AFTER UPDATE OF title, notes ON recording BEGIN
          UPDATE recordingSearch SET title = new.title, notes = coalesce(new.notes, '') WHERE rowid = new.rowid;
        END;
        CREATE TRIGGER recording_search_delete AFTER DELETE ON recording BEGIN
          DELETE FROM recordingSearch WHERE rowid = old.rowid;
          DELETE FROM transcript WHERE recordingId = old.id;
        END;
        CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcript BEGIN
          UPDATE recordingSearch SET transcript = new.text WHERE rowid = (SELECT rowid FROM recording WHERE id = new.recordingId);
        END;
        CREATE TRIGGER transcript_search_update AFTER UPDATE OF text ON transcript BEGIN
          UPDATE recordingSearch SET transcript = new.text WHERE rowid = (SELECT rowid FROM recording WHERE id = new.recordingId);
        END;
        CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcript BEGIN
          UPDATE recordingSearch SET transcript = '' WHERE rowid = (SELECT rowid FROM recording WHERE id = old.recordingId);
        END;
        """
}
