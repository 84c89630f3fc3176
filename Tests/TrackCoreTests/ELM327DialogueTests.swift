import Testing
import TrackCore

/// The dialogue alone: what it asks, in which order and when, and what it makes of answers, timeouts and noise.
/// The answers are the text ELM327-emulator's default car sends (OBDSourceTests talks to the emulator itself).
struct ELM327DialogueTests {
    /// A clock for the dialogue, in seconds.
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 1_000_000_000_000).adding(seconds: seconds)
    }

    /// Answers each command the dialogue sends with `answers[command]` until `until` commands were sent; returns
    /// the commands and the events.
    static func run(
        _ dialogue: inout ELM327Dialogue, from start: Double = 0, commands limit: Int,
        answers: (String) -> String?
    ) -> (commands: [String], events: [OBDEvent], time: Double) {
        var commands: [String] = []
        var events: [OBDEvent] = []
        var time = start
        while commands.count < limit {
            switch dialogue.next(at: at(time)) {
            case .wait(let until):
                time = max(time, until.seconds(since: at(0)))
            case .send(let command, _):
                commands.append(command)
                time += 0.05
                if let text = answers(command) {
                    events += dialogue.handle(ELM327Reply(text, command: command), at: at(time))
                } else {
                    events += dialogue.handleTimeout(at: at(time))
                }
            }
        }
        return (commands, events, time)
    }

    static let defaultCar: [String: String] = [
        "ATZ": "ATZ\r\r\rELM327 v1.5\r\r", "ATE0": "ATE0\rOK\r\r", "ATL0": "OK\r\r", "ATS0": "OK\r\r", "ATH0": "OK\r\r",
        "ATSP0": "OK\r\r", "0100": "SEARCHING...\r4100383B8013\r\r", "ATDP": "AUTO, ISO 15765-4 (CAN 11/500) \r\r",
        "0902": "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r\r", "01A0": "NO DATA\r\r",
        "01A6": "NO DATA\r\r", "010D": "410D04\r410D04\r\r", "010C": "410C09B0\r410C09B0\r\r", "ATRV": "13.1V\r\r",
    ]

    @Test func setsTheAdapterUpFindsTheCarIdentifiesItThenPolls() {
        var dialogue = ELM327Dialogue()
        let (commands, events, _) = Self.run(&dialogue, commands: 14) { Self.defaultCar[$0] }

        #expect(commands == ["ATZ", "ATE0", "ATL0", "ATS0", "ATH0", "ATSP0", "ATRV", "0100", "ATDP", "0902", "01A0",
                             "010D", "010C", "ATRV"])
        #expect(events.first == .adapter("ELM327 v1.5"))
        #expect(events.contains(.protocolName("AUTO, ISO 15765-4 (CAN 11/500)")))
        #expect(events.contains(.vin("WP0ZZZ99ZTS390000")))
        #expect(events.contains(.odometerSupport(false)))
        #expect(events.contains(.voltage(13.1)))
        #expect(dialogue.phase == .polling)
    }

    @Test func asksTheOdometerOnlyOfACarThatAnnouncesIt() {
        var answers = Self.defaultCar
        answers["01A0"] = "41A004000000\r\r"
        answers["01A6"] = "41A60001E240\r\r"
        var dialogue = ELM327Dialogue()
        let (commands, events, _) = Self.run(&dialogue, commands: 40) { answers[$0] }

        #expect(events.contains(.odometerSupport(true)))
        #expect(events.contains { if case .reading(.odometer(kilometres: 12345.6), _) = $0 { true } else { false } })
        // Identification reads it once; then once every odometerInterval (10 s) among the 1 s polls of speed.
        let polls = commands.drop { $0 != "01A6" }.dropFirst()
        #expect(polls.filter { $0 == "010D" }.count >= 9)
        let odometerPolls = polls.filter { $0 == "01A6" }.count
        #expect((1...2).contains(odometerPolls), "\(odometerPolls) odometer polls among \(polls.count) commands")
        // A car that does not announce it (01A0 answers NO DATA) is never asked, over as many commands.
        var plain = ELM327Dialogue()
        let unannounced = Self.run(&plain, commands: 40) { Self.defaultCar[$0] }
        #expect(unannounced.events.contains(.odometerSupport(false)))
        #expect(!unannounced.commands.contains("01A6"), "\(unannounced.commands)")
    }

    @Test func pollsSpeedAndEngineEverySecondAndTheVoltageEveryFive() {
        var dialogue = ELM327Dialogue()
        let setup = Self.run(&dialogue, commands: 11) { Self.defaultCar[$0] }
        let (commands, _, time) = Self.run(&dialogue, from: setup.time, commands: 60) { Self.defaultCar[$0] }

        let seconds = time - setup.time
        let speedRate = Double(commands.count { $0 == "010D" }) / seconds
        let voltageRate = Double(commands.count { $0 == "ATRV" }) / seconds
        #expect(abs(speedRate - 1) < 0.1, "\(speedRate) speed requests a second")
        #expect(commands.count { $0 == "010C" } == commands.count { $0 == "010D" })
        #expect(abs(voltageRate - 0.2) < 0.05, "\(voltageRate) voltage requests a second")
        #expect(!commands.contains("01A6"), "a car without PID A6 is not asked for it")
    }

    @Test func asksAgainForACarThatDoesNotAnswerAndReadsTheVoltageMeanwhile() {
        var answers = Self.defaultCar
        answers["0100"] = "SEARCHING...\rUNABLE TO CONNECT\r\r"
        answers["ATRV"] = "12.3V\r\r"
        var dialogue = ELM327Dialogue()
        let (commands, events, time) = Self.run(&dialogue, commands: 40) { answers[$0] }

        #expect(dialogue.phase == .searching)
        #expect(commands.count { $0 == "0100" } >= 4)
        #expect(events.contains(.carSilent("0100: UNABLE TO CONNECT: the adapter found no car on any protocol")))
        #expect(events.contains(.voltage(12.3)))
        // One search every carRetryInterval (5 s), not a busy loop; the voltage (which tells the engine's start and
        // costs the car's bus nothing) every second meanwhile.
        #expect(time / Double(commands.count { $0 == "0100" }) > 3.5)
        let voltageRate = Double(commands.count { $0 == "ATRV" }) / time
        #expect(abs(voltageRate - 1) < 0.15, "\(voltageRate) voltage readings a second")

        // The engine starts: the next search finds the car.
        answers["0100"] = Self.defaultCar["0100"]
        let later = Self.run(&dialogue, from: time, commands: 12) { answers[$0] }
        // 38 3B 80 13: bits for PIDs 03-05, 0B-0D, 0F-11, 1C, 1F and 20.
        #expect(later.events.contains(.carAnswered(supported: [0x03, 0x04, 0x05, 0x0B, 0x0C, 0x0D, 0x0F, 0x10, 0x11, 0x1C,
                                                              0x1F, 0x20])))
    }

    @Test func saysTheCarWentSilentAfterThreeUnansweredPollsButNotForNoise() {
        var answers = Self.defaultCar
        var dialogue = ELM327Dialogue()
        let start = Self.run(&dialogue, commands: 13) { answers[$0] }
        #expect(dialogue.phase == .polling)

        // Noise and a late answer to another request say nothing about the car.
        answers["010D"] = "4#!0D\r\r"
        answers["010C"] = "410D04\r\r"
        let noisy = Self.run(&dialogue, from: start.time, commands: 12) { answers[$0] }
        #expect(dialogue.phase == .polling)
        #expect(!noisy.events.contains { if case .carSilent = $0 { true } else { false } })

        answers["010D"] = "NO DATA\r\r"
        answers["010C"] = "CAN ERROR\r\r"
        // One command at a time: still polling after two unanswered polls, searching from the third, said once.
        var time = noisy.time
        var silentAt: [Int] = []
        var phases: [ELM327Dialogue.Phase] = []
        for index in 1...4 {
            let step = Self.run(&dialogue, from: time, commands: 1) { answers[$0] }
            time = step.time
            if step.events.contains(where: { if case .carSilent = $0 { true } else { false } }) { silentAt.append(index) }
            phases.append(dialogue.phase)
        }
        #expect(silentAt == [3], "\(silentAt)")
        #expect(Array(phases.prefix(2)) == [.polling, .polling] && phases[2] == .searching, "\(phases)")
    }

    @Test func reportsTheAdapterLostAfterThreeTimeoutsInARowAndStartsOver() {
        var dialogue = ELM327Dialogue()
        let start = Self.run(&dialogue, commands: 13) { Self.defaultCar[$0] }
        // One timeout, then an answer: not lost.
        var timeouts = 1
        let flaky = Self.run(&dialogue, from: start.time, commands: 4) { command in
            if timeouts > 0 {
                timeouts -= 1
                return nil
            }
            return Self.defaultCar[command]
        }
        #expect(!flaky.events.contains { if case .adapterLost = $0 { true } else { false } })

        let gone = Self.run(&dialogue, from: flaky.time, commands: 4) { _ in nil }
        #expect(gone.events.contains(.adapterLost("no answer from the adapter to 3 commands in a row")))
        #expect(dialogue.phase == .settingUp)
        #expect(gone.commands.last == "ATZ", "after the loss the dialogue starts from the reset")
    }

    @Test func goesOnPastSettingsACloneDoesNotKnow() {
        var answers = Self.defaultCar
        answers["ATS0"] = "?\r\r"
        answers["ATZ"] = "\r\rELM327 v2.1\r\r"
        var dialogue = ELM327Dialogue()
        let (commands, events, _) = Self.run(&dialogue, commands: 12) { answers[$0] }

        #expect(commands.prefix(8) == ["ATZ", "ATE0", "ATL0", "ATS0", "ATH0", "ATSP0", "ATRV", "0100"])
        #expect(events.first == .adapter("ELM327 v2.1"))
        #expect(events.contains(.unanswered("ATS0: the adapter did not understand the command (?), going on")))
        #expect(events.contains(.vin("WP0ZZZ99ZTS390000")))
    }

    @Test func resetsAgainWhenTheResetIsAnsweredWithSomethingElse() {
        var answers = Self.defaultCar
        answers["ATZ"] = "410D04\r\r"
        var dialogue = ELM327Dialogue()
        let (commands, events, _) = Self.run(&dialogue, commands: 3) { answers[$0] }

        #expect(commands == ["ATZ", "ATZ", "ATZ"])
        #expect(events.allSatisfy { if case .unanswered = $0 { true } else { false } })
    }

    /// A dialogue that has found the default car and polls it, and the time it got there.
    static func polling() -> (dialogue: ELM327Dialogue, time: Double) {
        var dialogue = ELM327Dialogue()
        let start = run(&dialogue, commands: 13) { defaultCar[$0] }
        return (dialogue, start.time)
    }

    /// The silences the dialogue reported while the car's speed and engine speed were answered with `answer`.
    static func silences(whenPollsAreAnswered answer: String, commands: Int = 12) -> [String] {
        var (dialogue, time) = polling()
        var answers = defaultCar
        answers["010D"] = answer
        answers["010C"] = answer
        return run(&dialogue, from: time, commands: commands) { answers[$0] }.events
            .compactMap { if case .carSilent(let reason) = $0 { reason } else { nil } }
    }

    @Test func answersWrittenWithoutTheirSpacesMakeTheCarSilent() {
        // The third poll in a row without data (010D, 010C, 010D) makes the car silent, once.
        #expect(Self.silences(whenPollsAreAnswered: "NODATA\r\r") == ["010D: the car did not answer (NO DATA)"])
        #expect(Self.silences(whenPollsAreAnswered: "BUSINIT: ...ERROR\r\r")
            == ["010D: BUS INIT ERROR: no car answered the adapter's slow initialisation"])
        #expect(Self.silences(whenPollsAreAnswered: "CANERROR\r\r").count == 1)
    }

    @Test func aCarThatRefusesTheRequestsGoesSilent() {
        let silences = Self.silences(whenPollsAreAnswered: "7F0112\r\r")
        #expect(silences == ["010D: the car refused the request (negative response, code 12)"], "\(silences)")
        #expect(Self.silences(whenPollsAreAnswered: "7F 01 31\r\r").count == 1, "with spaces, another reason")
    }

    @Test func theAdapterResettingItselfIsSetUpAgain() {
        for answer in ["LV RESET\r\r", "ERR94\r\r", "\r\rELM327 v1.5\r\r", "LV RESET\r\rELM327 v1.5\r\r"] {
            var (dialogue, time) = Self.polling()
            var answers = Self.defaultCar
            answers["010D"] = answer
            // The voltage is due first, then the speed.
            let step = Self.run(&dialogue, from: time, commands: 2) { answers[$0] }
            #expect(step.commands == ["ATRV", "010D"])
            #expect(dialogue.phase == .settingUp, "\(answer.debugDescription)")
            #expect(step.events.contains { if case .unanswered(let reason) = $0 { reason.contains("reset itself") } else { false } })
            // Set up again (echo and headers off once more), the car found again.
            time = step.time
            let again = Self.run(&dialogue, from: time, commands: 8) { Self.defaultCar[$0] }
            #expect(Array(again.commands.prefix(6)) == ELM327Dialogue.setupCommands, "\(again.commands)")
            #expect(again.events.first == .adapter("ELM327 v1.5"))
        }
    }

    @Test func answersThatCannotBeReadForFifteenSecondsMakeTheCarSilent() {
        var (dialogue, time) = Self.polling()
        var answers = Self.defaultCar
        answers["010D"] = "4#!0D\r\r"
        answers["010C"] = "410D04\r\r"
        var silentAfter: Double?
        let noiseStarted = time
        for _ in 0..<80 where silentAfter == nil {
            let step = Self.run(&dialogue, from: time, commands: 1) { answers[$0] }
            time = step.time
            if let reason = step.events.lazy.compactMap({ if case .carSilent(let reason) = $0 { reason } else { nil } }).first {
                silentAfter = time - noiseStarted
                #expect(reason.hasPrefix("010") && reason.contains("no answer could be read for 1"), "\(reason)")
            }
        }
        let after = try? #require(silentAfter)
        // 15 s after the first unreadable answer, at the next poll (one a second).
        #expect(after.map { (15...17).contains($0) } == true, "silent after \(after ?? -1) s of unreadable answers")
        #expect(dialogue.phase == .searching)

        // Readable answers between reset the count: noise for 10 s, one reading, noise for 10 s again.
        let (polled, start) = Self.polling()
        var other = polled
        var noisy = Self.defaultCar
        noisy["010D"] = "4#!0D\r\r"
        noisy["010C"] = "410D04\r\r"
        let first = Self.run(&other, from: start, commands: 20) { noisy[$0] }
        let good = Self.run(&other, from: first.time, commands: 2) { Self.defaultCar[$0] }
        let second = Self.run(&other, from: good.time, commands: 20) { noisy[$0] }
        #expect((first.time - start) + (second.time - good.time) > 15, "more than 15 s of noise in all")
        #expect(!(first.events + second.events).contains { if case .carSilent = $0 { true } else { false } })
        #expect(other.phase == .polling)
    }

    /// Runs the dialogue one command at a time until `until` seconds, answering with `answers`; the commands with
    /// the time each was sent, and the events with the time each came.
    static func timeline(
        _ dialogue: inout ELM327Dialogue, from start: Double, until end: Double, answers: (String) -> String?
    ) -> (commands: [(command: String, at: Double)], events: [(event: OBDEvent, at: Double)], time: Double) {
        var commands: [(command: String, at: Double)] = []
        var events: [(event: OBDEvent, at: Double)] = []
        var time = start
        while time < end {
            let step = run(&dialogue, from: time, commands: 1, answers: answers)
            commands.append((step.commands[0], time))
            events += step.events.map { ($0, step.time) }
            time = step.time
        }
        return (commands, events, time)
    }

    /// The default car parked: the engine off, so the car does not answer and the battery rests.
    static let parkedCar: [String: String] = defaultCar.merging(["0100": "NO DATA\r\r", "ATRV": "12.4V\r\r"]) { $1 }

    @Test func aParkedCarIsAskedLessOftenAndItsEngineStartIsStillSeen() {
        let answers = Self.parkedCar
        var dialogue = ELM327Dialogue()
        let night = Self.timeline(&dialogue, from: 0, until: 3_600) { answers[$0] }

        // The first two minutes as before: the car every 5 s, the voltage every second.
        let first = night.commands.filter { $0.at < 120 }
        #expect(first.count { $0.command == "0100" } >= 20)
        #expect(first.count { $0.command == "ATRV" } >= 100)
        // Then, parked: one 01 00 in 5 minutes, one voltage reading in 30 s, and still both.
        let parked = night.commands.filter { $0.at >= 180 }
        let minutes = (3_600 - 180) / 60.0
        let searches = parked.count { $0.command == "0100" }, readings = parked.count { $0.command == "ATRV" }
        print("ELM327DialogueTests: parked \(minutes) minutes: \(searches) requests to the car, \(readings) voltage readings")
        #expect((1...12).contains(searches), "\(searches) requests to the car in \(minutes) minutes parked")
        #expect((100...115).contains(readings), "\(readings) voltage readings in \(minutes) minutes parked")
        #expect(dialogue.isParked(at: Self.at(night.time)))

        // The engine starts: the voltage rises, the car answers. Seen within one parked voltage interval.
        let start = night.time
        let morning = Self.timeline(&dialogue, from: start, until: start + 60) { Self.defaultCar[$0] }
        let answered = morning.events.first { if case .carAnswered = $0.event { true } else { false } }
        let after = try? #require(answered).at - start
        #expect(after.map { $0 <= 31 } == true, "the car found \(after ?? -1) s after the engine started")
        #expect(!dialogue.isParked(at: Self.at(morning.time)))
    }

    @Test func aParkedCarsVoltageMovingBringsTheBriskPaceBack() {
        var answers = Self.parkedCar
        var dialogue = ELM327Dialogue()
        let night = Self.timeline(&dialogue, from: 0, until: 600) { answers[$0] }
        #expect(dialogue.isParked(at: Self.at(night.time)))
        // The starter's dip (the car still silent): asked for at once, the voltage every second again.
        answers["ATRV"] = "11.6V\r\r"
        let crank = Self.timeline(&dialogue, from: night.time, until: night.time + 40) { answers[$0] }
        let woke = try? #require(crank.commands.firstIndex { $0.command == "ATRV" })
        let afterWake = crank.commands.dropFirst((woke ?? 0) + 1)
        #expect(afterWake.first?.command == "0100", "\(crank.commands.prefix(4).map(\.command))")
        #expect(afterWake.count { $0.command == "ATRV" } >= 5, "brisk again: \(afterWake.map(\.command))")
        #expect(!dialogue.isParked(at: Self.at(crank.time)))
    }
}
