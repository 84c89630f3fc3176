#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import TrackConfig
import TrackCore
import TrackSetup
import TrackctlTexts

/// `trackctl setup`: the card's setup file (`trackd-setup.txt`), checked on a computer or applied on the board.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup", abstract: "Check or apply the card's setup file (trackd-setup.txt; docs/setup.md).",
        subcommands: [Check.self, Apply.self, Name.self])

    /// `trackctl setup check FILE`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a setup file: every wrong line and why, or what it sets.",
            discussion: "Exits 0 when the board would apply the file, 1 when it would refuse it (nothing applied).")

        @Argument(help: "The setup file.")
        var file: String

        @Option(help: "The time-zone database the board's is checked against.")
        var zoneinfo = "/usr/share/zoneinfo"

        func run() throws {
            let applier = SetupApplier(paths: .init(boot: "/nonexistent", root: "/"))
            let checked: Result<SetupFile, SetupFileError>
            do {
                checked = try applier.check(applier.readSetup(at: file), zoneinfo: zoneinfo)
            } catch {
                printError("trackctl: \(error)")
                throw ExitCode(ExitStatus.refused)
            }
            switch checked {
            case .success(let setup):
                print(SetupReport.applied(setup, version: TrackVersion.string, checking: true).replacing("\r\n", with: "\n"), terminator: "")
            case .failure(let error):
                print(SetupReport.refused(error, checking: true).replacing("\r\n", with: "\n"), terminator: "")
                throw ExitCode(ExitStatus.refused)
            }
        }
    }

    /// `trackctl setup apply`: what the image's trackd-setup.service runs at each boot.
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the card's setup file to this board, all of it or nothing (as root, before trackd starts).",
            discussion: """
                Reads BOOT/trackd-setup.txt, applies it unless it is the file applied last time, removes its \
                passwords from the card once the board keeps them, and writes BOOT/trackd-setup-result.txt. Exits 0 \
                when the file was applied or had been, 1 when it was refused (the result file names the wrong \
                lines; nothing changed), 2 when the board could not apply it.
                """)

        @Option(help: "The card's FAT partition.")
        var boot = "/boot/firmware"

        @Option(help: "The system's root (another folder for a system being prepared).")
        var root = "/"

        func run() throws {
            let applier = SetupApplier(paths: .init(boot: boot, root: root))
            let outcome: SetupApplier.Outcome
            do {
                outcome = try applier.run()
            } catch {
                printError(t("trackctl: setup not applied: \(error)"))
                throw ExitCode(2)
            }
            switch outcome {
            case .applied(_, let written):
                print(t("setup applied from \(boot)/\(SetupFile.fileName): \(written.joined(separator: ", "))"))
            case .unchanged:
                print(t("setup unchanged: \(boot)/\(SetupFile.fileName) was applied before"))
            case .missing:
                print(t("no setup file at \(boot)/\(SetupFile.fileName): the board keeps its settings"))
            case .refused(let error):
                printError(t("trackctl: setup refused, nothing applied (\(boot)/\(SetupReport.fileName) says why):\n\(error)"))
                throw ExitCode(ExitStatus.refused)
            }
        }
    }

    /// `trackctl setup name`: what the image's trackd-car-wifi-name.service runs while the radio is there.
    struct Name: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish trackd.local on the car's Wi-Fi alone (mDNS, through avahi-daemon) and hold it.",
            discussion: """
                The board's host name (trackd-PLATE once the setup file gives a plate) is published by avahi on every \
                network; this adds trackd.local on the car's Wi-Fi alone, where the phone looks for it. Runs until \
                stopped; exits 0 at once when the host name is trackd already, 1 when avahi refuses the name or goes.
                """)

        @Option(help: "The name.")
        var name = "trackd.local"

        @Option(help: "The interface it is published on (the car's access point).")
        var interface = SetupFile.accessPointInterface

        @Option(help: "The address it names (the board's own on the car's Wi-Fi).")
        var address = SetupFile.accessPointAddress

        func run() throws {
            var host = [CChar](repeating: 0, count: 256)
            if gethostname(&host, host.count) == 0,
               String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + ".local" == name {
                print(t("the board's own name is \(name) already: nothing more to publish"))
                return
            }
            do {
                try MDNSAlias(name: name, interface: interface, address: address).hold {
                    print(t("\(name) published on \(interface) at \(address)"))
                    fflush(nil)   // to the journal now, not when trackctl ends
                }
            } catch {
                printError(t("trackctl: \(name) not published: \(error)"))
                throw ExitCode(ExitStatus.refused)
            }
        }
    }
}
