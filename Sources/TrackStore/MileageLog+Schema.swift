import TrackDigest
import TrackSQLite

extension MileageLog {
    /// The schema, one step per trackd version that changed it. Steps are never edited once released: a change is a
    /// new step, so every log can be brought forward and a log from a newer trackd is recognised and refused.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-mileage-log") { db in
            try db.execute(sql: """
                CREATE TABLE profile (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    driver TEXT,
                    plate TEXT,
                    company TEXT,
                    time_zone TEXT NOT NULL DEFAULT 'UTC',
                    calibration_factor REAL NOT NULL DEFAULT 1 CHECK (calibration_factor > 0)
                );
                INSERT INTO profile (id) VALUES (1);

                -- One row per entry of the log. Rows are never removed: deletion is state 'deleted' with a reason.
                CREATE TABLE trip (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL CHECK (kind IN ('business', 'private', 'unclassified')),
                    purpose TEXT,
                    customer TEXT,
                    destination TEXT,
                    source TEXT NOT NULL CHECK (source IN ('gps', 'manual', 'regular', 'unrecorded', 'correction')),
                    state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'deleted')),
                    date TEXT,                      -- local calendar date (profile time zone), YYYY-MM-DD
                    start_time TEXT,                -- GPS time, ISO 8601 UTC
                    end_time TEXT,
                    start_lat REAL, start_lon REAL,
                    end_lat REAL, end_lon REAL,
                    odometer_start REAL,            -- metres
                    odometer_end REAL,
                    distance REAL NOT NULL DEFAULT 0,            -- metres, as logged (calibrated)
                    measured_distance REAL,                       -- metres, as measured (GPS trips)
                    calibration_factor REAL,
                    gap_count INTEGER NOT NULL DEFAULT 0,
                    bridged_seconds REAL NOT NULL DEFAULT 0,
                    bridged_distance REAL NOT NULL DEFAULT 0,
                    idle_alerts INTEGER NOT NULL DEFAULT 0,
                    end_reason TEXT,
                    regular_name TEXT,
                    deletion_reason TEXT
                );
                CREATE INDEX trip_date ON trip (date);
                CREATE TRIGGER trip_no_delete BEFORE DELETE ON trip
                    BEGIN SELECT RAISE(ABORT, 'trips are never erased: delete them with a reason (state deleted)'); END;

                -- The track of GPS trips, compactly: times in milliseconds, degrees in 1e-7, speed in cm/s,
                -- error and distance in centimetres. A new segment begins after each outage.
                CREATE TABLE track_point (
                    trip_id INTEGER NOT NULL REFERENCES trip (id),
                    seq INTEGER NOT NULL,
                    time_ms INTEGER NOT NULL,
                    lat_e7 INTEGER NOT NULL,
                    lon_e7 INTEGER NOT NULL,
                    speed_cms INTEGER,
                    error_cm INTEGER,
                    distance_cm INTEGER NOT NULL,
                    segment INTEGER NOT NULL,
                    PRIMARY KEY (trip_id, seq)
                ) WITHOUT ROWID;

                CREATE TABLE event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    time TEXT,
                    trip_id INTEGER,
                    detail TEXT NOT NULL
                );

                CREATE TABLE regular_trip (
                    name TEXT PRIMARY KEY,
                    distance REAL NOT NULL CHECK (distance > 0),
                    kind TEXT NOT NULL CHECK (kind IN ('business', 'private', 'unclassified')),
                    purpose TEXT,
                    customer TEXT,
                    destination TEXT
                );

                CREATE TABLE odometer_reading (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    value REAL NOT NULL,
                    time TEXT NOT NULL,
                    log_value REAL,
                    gap_trip_id INTEGER REFERENCES trip (id),
                    last_trip_id INTEGER,           -- the newest trip when the reading was taken
                    user TEXT NOT NULL,
                    reason TEXT NOT NULL
                );
                CREATE TRIGGER odometer_reading_append_only BEFORE UPDATE ON odometer_reading
                    BEGIN SELECT RAISE(ABORT, 'odometer readings are append-only'); END;
                CREATE TRIGGER odometer_reading_no_delete BEFORE DELETE ON odometer_reading
                    BEGIN SELECT RAISE(ABORT, 'odometer readings are append-only'); END;

                -- The change history: append-only.
                CREATE TABLE revision (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    trip_id INTEGER REFERENCES trip (id),
                    subject TEXT NOT NULL,
                    field TEXT NOT NULL,
                    old_value TEXT,
                    new_value TEXT,
                    time TEXT NOT NULL,
                    time_source TEXT NOT NULL,
                    user TEXT NOT NULL,
                    reason TEXT
                );
                CREATE INDEX revision_trip ON revision (trip_id);
                CREATE TRIGGER revision_append_only BEFORE UPDATE ON revision
                    BEGIN SELECT RAISE(ABORT, 'the change history is append-only'); END;
                CREATE TRIGGER revision_no_delete BEFORE DELETE ON revision
                    BEGIN SELECT RAISE(ABORT, 'the change history is append-only'); END;

                -- The hash chain: each record's hash covers the previous hash and the record's canonical text.
                CREATE TABLE ledger (
                    seq INTEGER PRIMARY KEY,
                    subject TEXT NOT NULL,
                    ref TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    hash TEXT NOT NULL
                );
                CREATE INDEX ledger_subject ON ledger (subject, ref);
                CREATE TRIGGER ledger_append_only BEFORE UPDATE ON ledger
                    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
                CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
                    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
                """)
        }
        migrator.registerMigration("v2-erasable-chain") { db in
            try migrateToErasableChain(db)
        }
        migrator.registerMigration("v3-places") { db in
            try db.execute(sql: """
                -- Places the driver named (docs/places.md). A trip keeps the name and address it got, and the
                -- place's number while the place exists.
                CREATE TABLE place (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    key TEXT NOT NULL UNIQUE,       -- the name as looked up: lower case, '-' between words
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    radius REAL NOT NULL CHECK (radius > 0),
                    address TEXT,
                    customer TEXT,
                    purpose TEXT,
                    kind TEXT CHECK (kind IS NULL OR kind IN ('business', 'private', 'unclassified'))
                );
                ALTER TABLE trip ADD COLUMN start_place_id INTEGER;
                ALTER TABLE trip ADD COLUMN start_place TEXT;
                ALTER TABLE trip ADD COLUMN start_address TEXT;
                ALTER TABLE trip ADD COLUMN end_place_id INTEGER;
                ALTER TABLE trip ADD COLUMN end_place TEXT;
                ALTER TABLE trip ADD COLUMN end_address TEXT;
                ALTER TABLE regular_trip ADD COLUMN from_place TEXT;
                ALTER TABLE regular_trip ADD COLUMN to_place TEXT;
                """)
        }
        migrator.registerMigration("v4-uplink") { db in
            try db.execute(sql: """
                -- How far each uplink's receiver acknowledged the log (docs/fleet.md): every trip before trip_id,
                -- and of that trip its start, its points up to point_seq, its events up to event_id, its end.
                CREATE TABLE uplink_cursor (
                    transport TEXT PRIMARY KEY,
                    trip_id INTEGER NOT NULL,
                    started INTEGER NOT NULL,
                    point_seq INTEGER NOT NULL,
                    event_id INTEGER NOT NULL,
                    ended INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v5-report-mail") { db in
            try db.execute(sql: """
                -- Each sending of a month's report by e-mail (docs/mail.md), append-only. recipients: the addresses,
                -- ', ' between them; chain_head: the chain's head when the report was made ('' for a log without one).
                CREATE TABLE report_mail (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    month TEXT NOT NULL,            -- YYYY-MM
                    recipients TEXT NOT NULL,
                    sent_time TEXT NOT NULL,        -- when the server accepted it, ISO 8601 UTC
                    chain_head TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    trigger TEXT NOT NULL CHECK (trigger IN ('monthly', 'manual'))
                );
                CREATE INDEX report_mail_month ON report_mail (month, trigger);
                CREATE TRIGGER report_mail_append_only BEFORE UPDATE ON report_mail
                    BEGIN SELECT RAISE(ABORT, 'the record of mailed reports is append-only'); END;
                CREATE TRIGGER report_mail_no_delete BEFORE DELETE ON report_mail
                    BEGIN SELECT RAISE(ABORT, 'the record of mailed reports is append-only'); END;
                """)
        }
        migrator.registerMigration("v6-odometer-sources") { db in
            try db.execute(sql: """
                -- Where each trip's odometer readings came from (docs/obd.md): read from the car (OBD-II PID A6), a
                -- dashboard reading typed in, or the log's own odometer carried on by the GPS distance. NULL in
                -- entries from before this step.
                ALTER TABLE trip ADD COLUMN odometer_start_source TEXT
                    CHECK (odometer_start_source IN ('car', 'dashboard', 'gps'));
                ALTER TABLE trip ADD COLUMN odometer_end_source TEXT
                    CHECK (odometer_end_source IN ('car', 'dashboard', 'gps'));
                """)
        }
        migrator.registerMigration("v7-vehicle") { db in
            try db.execute(sql: """
                -- The car the log belongs to: its VIN, read from the car (OBD-II mode 09) when the log first meets it,
                -- or set by hand (docs/obd.md). NULL until then.
                ALTER TABLE profile ADD COLUMN vin TEXT;
                """)
        }
        migrator.registerMigration("v8-country") { db in
            try db.execute(sql: """
                -- The country whose tax office the log is kept for (its rules, rates and unit; docs/countries.md), and
                -- the unit distances are shown in where the profile sets its own. NULL: none, and the country's.
                ALTER TABLE profile ADD COLUMN country TEXT CHECK (country IN ('EE', 'DE', 'UK', 'US'));
                ALTER TABLE profile ADD COLUMN unit TEXT CHECK (unit IN ('km', 'mi'));
                """)
        }
        migrator.registerMigration("v9-rate") { db in
            try db.execute(sql: """
                -- An employer's own mileage rate in place of the country's table: thousandths of the country's
                -- currency per unit of the country's (docs/countries.md). NULL: the table's.
                ALTER TABLE profile ADD COLUMN rate INTEGER CHECK (rate > 0 AND rate < 10000);
                """)
        }
        migrator.registerMigration("v10-stick-copy") { db in
            try db.execute(sql: """
                -- Each copy of the reports to a USB stick by trackd-stick (docs/install.md, "Taking the logs home"),
                -- append-only: when, the stick's label and filesystem, the folder, how many files were written, left
                -- or removed, the chain head the reports carry, and why it did not finish (NULL: it did).
                CREATE TABLE stick_copy (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    time TEXT NOT NULL,             -- ISO 8601 UTC
                    label TEXT NOT NULL,
                    filesystem TEXT NOT NULL,
                    folder TEXT NOT NULL,
                    written INTEGER NOT NULL CHECK (written >= 0),
                    unchanged INTEGER NOT NULL CHECK (unchanged >= 0),
                    removed INTEGER NOT NULL CHECK (removed >= 0),
                    chain_head TEXT NOT NULL,
                    problem TEXT
                );
                CREATE TRIGGER stick_copy_append_only BEFORE UPDATE ON stick_copy
                    BEGIN SELECT RAISE(ABORT, 'the record of copies to USB sticks is append-only'); END;
                """)
        }
        migrator.registerMigration("v11-commute-detour") { db in
            try db.execute(sql: """
                -- The German Fahrtenbuch's own columns (docs/countries.md): a private trip between home and the regular
                -- place of work (1; 0 for every other trip, and every trip from before), and a detour with its reason.
                ALTER TABLE trip ADD COLUMN commute INTEGER NOT NULL DEFAULT 0 CHECK (commute IN (0, 1));
                ALTER TABLE trip ADD COLUMN detour TEXT;
                """)
        }
        migrator.registerMigration("v12-car") { db in
            try db.execute(sql: """
                -- Whose car the log is kept for: the driver's own (a mileage allowance is worked out) or a company car
                -- (none; docs/countries.md). NULL: not said, taken as the driver's own.
                ALTER TABLE profile ADD COLUMN car TEXT CHECK (car IN ('own', 'company'));
                """)
        }
        migrator.registerMigration("v13-rules") { db in
            try db.execute(sql: """
                -- Rules that classify a GPS trip when it closes unclassified (docs/rules.md): by the places it went
                -- between, by the driver's hours, or by a regular trip's places. 'declined' keeps a suggestion the
                -- driver said never to offer again.
                CREATE TABLE rule (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    type TEXT NOT NULL CHECK (type IN ('places', 'hours', 'regular')),
                    from_place INTEGER,             -- places: the place numbers
                    to_place INTEGER,
                    either_way INTEGER NOT NULL DEFAULT 0 CHECK (either_way IN (0, 1)),
                    days TEXT,                      -- hours: ISO weekday numbers, '1,2,3,4,5'
                    start_minute INTEGER CHECK (start_minute BETWEEN 0 AND 1439),
                    end_minute INTEGER CHECK (end_minute BETWEEN 1 AND 1440),
                    outside INTEGER NOT NULL DEFAULT 0 CHECK (outside IN (0, 1)),
                    regular TEXT,                   -- regular: the regular trip's name
                    kind TEXT NOT NULL CHECK (kind IN ('business', 'private', 'unclassified')),
                    commute INTEGER NOT NULL DEFAULT 0 CHECK (commute IN (0, 1)),
                    purpose TEXT,
                    customer TEXT,
                    state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'declined'))
                );
                -- The rule that classified a trip (its number while it exists, its text as it was), and whether the
                -- driver has still to confirm it (1) or not (0: confirmed, or no rule's).
                ALTER TABLE trip ADD COLUMN rule_id INTEGER;
                ALTER TABLE trip ADD COLUMN rule TEXT;
                ALTER TABLE trip ADD COLUMN to_confirm INTEGER NOT NULL DEFAULT 0 CHECK (to_confirm IN (0, 1));
                """)
        }
        migrator.registerMigration("v14-language") { db in
            try db.execute(sql: """
                -- The language trackd speaks to the log's people in (docs/web.md): the page where a device has not
                -- chosen its own, trackctl, the mail. NULL: none (each device's or environment's own, else English).
                ALTER TABLE profile ADD COLUMN language TEXT CHECK (language IN ('en', 'de', 'et'));
                """)
        }
        return migrator
    }()

    /// Schema step 2 (trackd 0.3): what privacy needs. Trips say what is kept of their route; entries of the change
    /// history can have their values erased; the hash chain covers the digest of each record's text instead of the
    /// text (chain format 2), so that a text can be erased and the chain still verifies. Every record already
    /// written is re-hashed in the new format, its first hash kept in `v1_hash`, and a `chain` record notes the
    /// step with the old head, so that a head printed on an earlier report still leads into the chain.
    static func migrateToErasableChain(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE trip ADD COLUMN route TEXT NOT NULL DEFAULT 'recorded'
                CHECK (route IN ('recorded', 'withheld', 'erased'));

            ALTER TABLE revision ADD COLUMN erased INTEGER NOT NULL DEFAULT 0;
            DROP TRIGGER revision_append_only;
            CREATE TRIGGER revision_append_only BEFORE UPDATE ON revision
                WHEN NOT (NEW.id = OLD.id AND NEW.trip_id IS OLD.trip_id AND NEW.subject = OLD.subject
                          AND NEW.field = OLD.field AND NEW.time = OLD.time AND NEW.time_source = OLD.time_source
                          AND NEW.user = OLD.user AND NEW.reason IS OLD.reason AND NEW.erased = 1
                          AND (NEW.old_value IS NULL OR NEW.old_value IS OLD.old_value)
                          AND (NEW.new_value IS NULL OR NEW.new_value IS OLD.new_value))
                BEGIN SELECT RAISE(ABORT, 'the change history is append-only: only its values can be erased'); END;

            DROP TRIGGER ledger_append_only;
            DROP TRIGGER ledger_no_delete;
            DROP INDEX ledger_subject;
            ALTER TABLE ledger RENAME TO ledger_v1;
            -- The hash chain: each record's hash covers the previous hash and the digest of its canonical text; the
            -- text is NULL once erased, its digest stays.
            CREATE TABLE ledger (
                seq INTEGER PRIMARY KEY,
                subject TEXT NOT NULL,
                ref TEXT NOT NULL,
                payload TEXT,
                payload_sha256 TEXT NOT NULL,
                hash TEXT NOT NULL,
                v1_hash TEXT                    -- the record's hash in chain format 1 (records written before v2)
            );
            """)
        var previous = ""
        var count = 0
        let rows = try Row.fetchAll(db, sql: "SELECT seq, subject, ref, payload, hash FROM ledger_v1 ORDER BY seq")
        for row in rows {
            let subject: String = try row["subject"]
            let ref: String = try row["ref"]
            let payload: String = try row["payload"]
            let payloadDigest = Ledger.sha256(payload)
            let hash = Ledger.recordDigest(previous: previous, subject: subject, ref: ref, payloadSHA256: payloadDigest)
            try db.execute(sql: """
                INSERT INTO ledger (seq, subject, ref, payload, payload_sha256, hash, v1_hash) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [row["seq"] as Int64, subject, ref, payload, payloadDigest, hash, row["hash"] as String])
            previous = hash
            count += 1
        }
        try db.execute(sql: """
            DROP TABLE ledger_v1;
            CREATE INDEX ledger_subject ON ledger (subject, ref);
            CREATE TRIGGER ledger_append_only BEFORE UPDATE ON ledger
                WHEN NOT (OLD.payload IS NOT NULL AND NEW.payload IS NULL AND NEW.seq = OLD.seq
                          AND NEW.subject = OLD.subject AND NEW.ref = OLD.ref AND NEW.hash = OLD.hash
                          AND NEW.payload_sha256 = OLD.payload_sha256 AND NEW.v1_hash IS OLD.v1_hash)
                BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: only a record''s text can be erased'); END;
            CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
                BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
            """)
        if let v1Head = try rows.last?["hash"] as String? {
            var record = CanonicalRecord()
            record.add("format", 2)
            record.add("v1_head", v1Head)
            record.add("v1_records", count)
            try Ledger.append(db, .chain, ref: "2", payload: record.text)
        }
    }
}
