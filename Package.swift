// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "trackd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "trackd", targets: ["trackd"]),
        .executable(name: "trackctl", targets: ["trackctl"]),
        .executable(name: "trackd-web", targets: ["trackd-web"]),
        .executable(name: "trackd-stick", targets: ["trackd-stick"]),
        .library(name: "TrackCore", targets: ["TrackCore"]),
        // For the harness package in Benchmarks/: receivers on a pseudo-terminal, the socket's client, test helpers.
        .library(name: "TrackInput", targets: ["TrackInput"]),
        .library(name: "ControlSocket", targets: ["ControlSocket"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        // For the harnesses in Benchmarks/: the point file beside a log they copy after a power cut.
        .library(name: "TrackStore", targets: ["TrackStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.12.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        // trackd-web's HTTP server, without its FullFoundation trait (no ICU) and without swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        // HTTPTypes, which Hummingbird's requests and responses are made of.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // TLS for trackd-web's page (HummingbirdTLS's channel over swift-nio-ssl, BoringSSL inside).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
    ],
    targets: [
        // C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(
            name: "CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),
        // zlib's CRC-32, the check of each record of the point file (TrackStore).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libmosquitto's functions that trackd calls, forwarded to the library loaded (dlopen) with the first MQTT
        // uplink; Debian's libmosquitto-dev for its header.
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        // libqrencode: the QR code of the pairing address that trackctl web pair prints (TerminalQR).
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(name: "TerminalQR", dependencies: ["CQRencode"]),
        // libyaml's event parser, under the configuration file's composer (TrackConfig's YAMLComposer).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),

        // posix_openpt and friends, which Swift's Glibc module does not declare.
        .target(name: "CPseudoTerminal"),

        // struct ucred for SO_PEERCRED, which Swift's Glibc module does not declare.
        .target(name: "CPeerCredentials"),

        // libcurl's easy interface for one form POST (its curl_easy_setopt is variadic, which Swift cannot call);
        // Debian's libcurl4-openssl-dev for its header. libcurl itself is loaded (dlopen) with the first OsmAnd
        // uplink, so that a car without one does not carry its 25 libraries in memory.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),

        // posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare.
        .target(name: "CSpawn"),

        // trackd's malloc limited to one arena before main (docs/benchmarks.md, "Memory").
        .target(name: "CMallocTuning"),

        // statfs(2) and the filesystems' magic numbers, and open(2) with O_DIRECT, which Swift's Glibc module does not
        // declare.
        .target(name: "CFileSystem"),

        // pthread_setname_np, which Swift's Glibc module does not declare: the names of trackd's blocking threads.
        .target(name: "CThreadName"),
        // Threads of the system's own (POSIX), named, detached or joined: for blocking work off Swift's threads.
        .target(name: "TrackThreads", dependencies: ["CThreadName"]),

        // Numbers as text the C library's way (`String(printf:)`), without the full Foundation and its ICU.
        .target(name: "TrackText"),

        // trackctl's sentences in the languages it speaks (English, German, Estonian) and the one it speaks now.
        .target(name: "TrackctlTexts", dependencies: ["TrackCore"]),

        // The pure heart: NMEA, fixes and (later) the engine. No I/O, no clock.
        .target(
            name: "TrackCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),

        // Named time zones: the system's TZif files (/usr/share/zoneinfo, or $TZDIR) read into TrackCore's ZoneRules.
        .target(name: "TrackZoneInfo", dependencies: ["TrackCore"]),

        // The mileage log's exports (CSV, GPX, GeoJSON, printable HTML): pure renderers, no clock; the one read is
        // the report's time zone (TrackZoneInfo).
        .target(name: "TrackReports", dependencies: ["TrackCore", "TrackZoneInfo"]),

        // Where fixes come from: gpsd (libgps), a serial receiver, a recorded log.
        .target(
            name: "TrackInput",
            dependencies: [
                "TrackCore",
                "CGPS",
                "CPseudoTerminal",
                "TrackThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The configuration file (YAML, read through libyaml), with errors that name the key and the line.
        .target(name: "TrackConfig", dependencies: ["TrackCore", "CYAML", "TrackZoneInfo"]),

        // SQLite, Debian's libsqlite3.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libgcrypt (Debian's libgcrypt20-dev): SHA-256, and its variadic gcry_control, which Swift cannot call.
        .target(name: "CGcrypt", linkerSettings: [.linkedLibrary("gcrypt")]),
        // SHA-256 through libgcrypt: the log's hash chain (TrackStore), the web page's session tokens (TrackWeb).
        .target(name: "TrackDigest", dependencies: ["CGcrypt"]),
        // A thin, safe layer over libsqlite3: connections, statements, rows, a queue, a pool, the schema's steps.
        .target(name: "TrackSQLite", dependencies: ["CSQLite"]),

        // The mileage log: SQLite through TrackSQLite, migrations, power-cut-safe writes, the audit trail and its hash chain.
        .target(
            name: "TrackStore",
            dependencies: [
                "TrackCore",
                "TrackSQLite",
                // sqlite3_system_errno: whether a failed write met a full disk or a read-only filesystem.
                "CSQLite",
                // SHA-256 of the hash chain: libgcrypt (libsystemd links it already).
                "TrackDigest",
                // CRC-32 of the point file's records: zlib.
                "CZlib",
                // The point file opened with O_DIRECT.
                "CFileSystem",
                "TrackText",
                "TrackZoneInfo",
                // FilePath: the folder of the log's file.
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The control socket's wire format (bounded JSON lines) and the client trackctl uses.
        .target(
            name: "ControlSocket",
            dependencies: [
                "TrackCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),

        // The MQTT client the uplink sends through: libmosquitto, from the mosquitto project.
        // The HTTP client the OsmAnd (Traccar) uplink posts through: libcurl.
        .target(name: "TrackUplink", dependencies: ["CMosquitto", "CCurl", "TrackThreads"]),

        // Logs to the systemd journal as native fields (sd_journal_sendv), or plain lines on stderr elsewhere.
        .target(
            name: "TrackJournal",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),

        // The daemon's running parts: the source, the one owner of live state, the control server.
        .target(
            name: "TrackService",
            dependencies: [
                "TrackCore",
                "TrackConfig",
                "CPeerCredentials",
                "CSpawn",
                "CFileSystem",
                "CMallocTuning",
                "TrackInput",
                "TrackThreads",
                "TrackStore",
                "TrackReports",
                "ControlSocket",
                "TrackUplink",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        .executableTarget(
            name: "trackd",
            dependencies: [
                "CMallocTuning",
                "TrackCore",
                "TrackInput",
                "TrackService",
                "TrackStore",
                "TrackConfig",
                "TrackJournal",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "trackctl",
            dependencies: [
                "TrackCore",
                "TrackInput",
                "ControlSocket",
                "TrackConfig",
                "TrackStore",
                "TrackReports",
                // MailTransport: `export --mail` hands the report to msmtp as the daemon does.
                "TrackService",
                "TrackText",
                "TrackctlTexts",
                // trackctl web: trackd-web's administration socket; the pairing address as a QR code.
                "TrackWebClient",
                "TerminalQR",
                // trackctl setup: the card's setup file.
                "TrackSetup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // The driver's page (docs/web.md): Hummingbird's HTTP server and router, the paired devices in a SQLite file
        // of its own, and trackd reached only through the control socket.
        .target(
            name: "TrackWeb",
            dependencies: [
                "TrackCore",
                "TrackReports",
                "TrackSQLite",
                "TrackDigest",
                "ControlSocket",
                // The administration socket's messages (PairingCode, PairedDevice), shared with trackctl web.
                "TrackWebClient",
                // sd_listen_fds_with_names: the sockets of socket activation.
                "CSystemd",
                // The car's Wi-Fi as a QR code on the page (libqrencode, as trackctl web pair's).
                "TerminalQR",
                // The page's files gzip-compressed for the browsers that take it (CompressedPageMiddleware).
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // The page over HTTPS with the certificate and key trackd.conf's web: section names.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // One HTTP/1.1 exchange over a Unix or TCP socket (swift-nio's codec), and the messages of trackd-web's
        // administration socket: trackctl web, and the page's tests.
        .target(
            name: "TrackWebClient",
            dependencies: [
                // WiFiNetwork, in a pairing code.
                "TrackCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "trackd-web",
            dependencies: [
                "TrackWeb",
                "TrackJournal",
                // trackd.conf's web: section (the certificate and key).
                "TrackConfig",
                // WiFiNetwork, read from the card image's credential.
                "TrackCore",
                "TrackWebClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // libblkid (util-linux, Debian's libblkid-dev): a USB stick's filesystem type and label, from its superblock.
        .systemLibrary(
            name: "CBlkid",
            pkgConfig: "blkid",
            providers: [.apt(["libblkid-dev"])]
        ),
        // The card's setup file applied to the board (docs/setup.md): trackd.conf, the time zone, SSH keys; each file
        // replaced atomically (AtomicFile, TrackService's), the result written back onto the card.
        .target(
            name: "TrackSetup",
            dependencies: [
                // sd-bus: the board's second mDNS name, held through avahi-daemon (MDNSAlias).
                "CSystemd",
                "TrackConfig",
                "TrackCore",
                "TrackDigest",
                "TrackService",
                "TrackZoneInfo",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The reports onto a USB stick (docs/install.md, "Taking the logs home"): the stick read, mounted and written
        // file by file (temporary name, fsync, rename), the log reached only through trackd's control socket.
        .target(
            name: "TrackStick",
            dependencies: [
                "CBlkid",
                "TrackCore",
                "TrackReports",
                "TrackDigest",
                "TrackConfig",
                "ControlSocket",
                // AlertCommandRun: mount(8) and umount(8) run as the alert command and msmtp are.
                "TrackService",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "trackd-stick",
            dependencies: [
                "TrackStick",
                "TrackCore",
                "TrackConfig",
                "TrackJournal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What several test targets need: temporary folders, the sqlite3 shell, child processes.
        .target(
            name: "TestSupport",
            dependencies: ["TrackCore", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"
        ),
        // Fuzz targets (scripts/fuzz builds them with libFuzzer; a normal build makes plain runners that replay
        // input files, docs/reliability.md).
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "FuzzNMEA",
            dependencies: ["TrackCore", "FuzzSupport"]
        ),
        // The OBD-II adapter's answers through the ELM327 dialogue, the parameters' readers and status's JSON.
        .executableTarget(
            name: "FuzzOBD",
            dependencies: ["TrackCore", "FuzzSupport"]
        ),
        .executableTarget(
            name: "FuzzControlRequest",
            dependencies: [
                "TrackCore",
                "TrackInput",
                "TrackService",
                "TrackStore",
                "ControlSocket",
                "FuzzSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),

        .testTarget(name: "TrackTextTests", dependencies: ["TrackText"]),
        .testTarget(name: "TrackctlTextsTests", dependencies: ["TrackctlTexts", "TrackCore"]),
        .testTarget(
            name: "TrackStickTests",
            dependencies: ["TrackStick", "TrackCore", "TrackDigest", "TestSupport",
                           .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(name: "TrackThreadsTests", dependencies: ["TrackThreads"]),
        .testTarget(name: "TrackSetupTests", dependencies: ["TrackSetup", "TrackConfig", "TrackCore", "TestSupport"]),
        .testTarget(name: "TrackWebTests", dependencies: ["TrackWeb", "TrackWebClient", "TrackCore", "TestSupport", "CZlib"]),
        .testTarget(name: "TrackDigestTests", dependencies: ["TrackDigest"]),
        .testTarget(name: "TerminalQRTests", dependencies: ["TerminalQR", "TestSupport"]),
        .testTarget(name: "TrackSQLiteTests", dependencies: ["TrackSQLite", "CSQLite", "TestSupport"]),
        // The MQTT client against a real mosquitto (TestSupport's broker).
        .testTarget(name: "TrackUplinkTests", dependencies: ["TrackUplink", "TestSupport"]),
        .testTarget(name: "TrackZoneInfoTests", dependencies: ["TrackZoneInfo", "TrackCore", "TestSupport"]),
        .testTarget(
            name: "TrackCoreTests",
            dependencies: ["TrackCore", "TestSupport", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .testTarget(
            name: "TrackStoreTests",
            // CGcrypt: CRC32Tests hold zlib's CRC-32 against libgcrypt's, which the point file used before.
            dependencies: ["TrackStore", "TrackCore", "TestSupport", "TrackSQLite", "CGcrypt"]
        ),
        .testTarget(
            name: "TrackReportsTests",
            // TestSupport: python3's email module reads the composed mails back.
            dependencies: ["TrackReports", "TrackCore", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TrackConfigTests",
            dependencies: ["TrackConfig", "TrackCore", "TestSupport"]
        ),
        // The journal handler against a real datagram socket at journald's path; the choice of destination.
        .testTarget(
            name: "TrackJournalTests",
            dependencies: ["TrackJournal", "TrackService", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "TrackServiceTests",
            dependencies: [
                "TrackService", "TrackConfig", "ControlSocket", "TrackInput", "TrackCore", "TrackStore", "TrackReports", "TestSupport",
                "TrackSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // trackd and trackctl as a driver runs them: real processes, signals, the socket and the database file.
        .testTarget(
            name: "SystemTests",
            dependencies: [
                "TrackCore", "TrackInput", "TrackStore", "TestSupport", "TrackWebClient", "trackd", "trackctl", "trackd-web",
                "trackd-stick", "TrackctlTexts",
            ]
        ),
        .testTarget(
            name: "TrackInputTests",
            dependencies: [
                "TrackInput", "TrackCore", "TestSupport", "trackctl",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The layering is checked, not a convention (docs/architecture.md):
// - the compiler: a file uses only what it imports itself (MemberImportVisibility), and an existential is written
//   `any P` (ExistentialAny, an error here);
// - scripts/test builds with `--explicit-target-dependency-import-check error` (an import of one of this package's
//   targets that is not a dependency fails the build), and runs scripts/check-imports first (every import, products
//   included, is declared by its target: SwiftPM's own check lets through what a dependency drags in) and
//   scripts/check-layering (TrackCore does no I/O and reads no clock).
let cTargets: Set<String> = ["CPseudoTerminal", "CPeerCredentials", "CSpawn", "CFileSystem", "CCurl", "CThreadName"]
// The arm64 test bundle (scripts/arm64 release sets TRACKD_TEST_TARGETS_UNOPTIMISED=1): the tests' own code compiled
// without optimisation, what they test optimised as it ships. The tests' code is most of what that release build
// compiles and little of what the tests run; unoptimised, the build takes a fifth less processor time (amd64's
// `swift build -c release --build-tests`, 2026-12-06: 1 275 s against 1 580 s of user time) in CI, where it runs
// beside the suite. Nothing else sets it: the programs and every other build are as before.
if Context.environment["TRACKD_TEST_TARGETS_UNOPTIMISED"] == "1" {
    for target in package.targets where target.type == .test {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
    }
}

for target in package.targets where target.type != .system && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("ExistentialAny"),
        .treatWarning("ExistentialAny", as: .error),
    ]
}
