import TestSupport
import Testing
@testable import TrackCore

/// The answers of ELM327-emulator 4.0.0 (its default and `car` scenarios, over TCP, captured 2026-11-28 with echo
/// off, spaces on and off) and of the ELM327 data sheet's examples, read as trackd reads them.
struct OBDParameterTests {
    func read(_ parameter: OBDParameter, _ raw: String) -> Result<OBDValue, OBDReadError> {
        parameter.value(in: ELM327Reply(raw, command: parameter.command))
    }

    @Test func readsEngineSpeedFromTheFirstOfTwoControlUnits() {
        // The default scenario: two control units answer 010C.
        #expect(read(.engineSpeed, "41 0C 09 B0 \r41 0C 09 B0 \r\r") == .success(.revolutionsPerMinute(620)))
        // The car scenario, spaces off: 0x145F / 4.
        #expect(read(.engineSpeed, "410C145F\r\r") == .success(.revolutionsPerMinute(1303.75)))
    }

    @Test func readsVehicleSpeedWithEchoAndTheProtocolSearchBeforeIt() {
        #expect(read(.vehicleSpeed, "010D\rSEARCHING...\r41 0D 04 \r\r") == .success(.kilometresPerHour(4)))
        #expect(read(.vehicleSpeed, "410D0A\r\r") == .success(.kilometresPerHour(10)))
    }

    @Test func readsTheOdometerInTenthsOfAKilometre() {
        #expect(read(.odometer, "41 A6 00 00 EA 5C\r\r") == .success(.kilometres(5999.6)))
        #expect(read(.odometer, "41A600BC614E\r\r") == .success(.kilometres(1_234_567.8)))
    }

    @Test func refusesTheEmulatorsOdometerAnswerWhoseServiceByteIsWrong() {
        // The car scenario answers 01A6 with 61 A6 (service 21's positive response) instead of 41 A6: not an
        // answer to this request, so no reading is taken from it.
        guard case .failure(.unexpected("01A6", _)) = read(.odometer, "61A60000EA5C\r\r") else {
            Issue.record("an answer of another service was taken as the odometer")
            return
        }
    }

    @Test func readsTheVINFromAMultiFrameAnswer() {
        let spaced = "014\r0: 49 02 01 57 50 30 \r1: 5A 5A 5A 39 39 5A 54 \r2: 53 33 39 30 30 30 30 \r\r"
        #expect(read(.vin, spaced) == .success(.vin("WP0ZZZ99ZTS390000")))
        let packed = "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r\r"
        #expect(read(.vin, packed) == .success(.vin("WP0ZZZ99ZTS390000")))
    }

    @Test func readsWhichPIDsTheCarSupports() {
        // The car scenario: 01A0 → 04 20 00 00, so A6 (the odometer) and AB.
        #expect(read(.supportedA1toC0, "41A004200000\r\r") == .success(.supported([0xA6, 0xAB])))
        // The default scenario: 0100 → 38 3B 80 13.
        guard case .success(.supported(let pids)) = read(.supported01to20, "SEARCHING...\r41 00 38 3B 80 13 \r\r") else {
            Issue.record("no supported PIDs")
            return
        }
        #expect(pids.contains(0x0C) && pids.contains(0x0D) && pids.contains(0x20) && !pids.contains(0x01))
    }

    @Test func garbageGivesAReasonNeverACrash() {
        // Lines of hex digits, colons, spaces and words in any order, as a failing adapter or a noisy link sends.
        let pieces = ["0", "1", "4", "9", "A", "F", ":", " ", "\r", "41", "49 02", "0:", "014", "NO DATA", "?", "SEARCHING..."]
        var random = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            let raw = (0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            for parameter in OBDParameter.allCases {
                if case .success(let value) = parameter.value(in: ELM327Reply(raw, command: parameter.command)) {
                    // Whatever is read from noise must at least be a value of this parameter's kind.
                    switch (parameter, value) {
                    case (.supported01to20, .supported), (.supportedA1toC0, .supported), (.engineSpeed, .revolutionsPerMinute),
                         (.vehicleSpeed, .kilometresPerHour), (.odometer, .kilometres), (.vin, .vin): break
                    default: Issue.record("\(parameter) read \(value) from \(raw.debugDescription)")
                    }
                }
            }
        }
    }

    @Test func saysWhyThereIsNoValue() {
        #expect(read(.odometer, "NO DATA\r\r") == .failure(.noData("01A6")))
        #expect(read(.engineSpeed, "SEARCHING...\rUNABLE TO CONNECT\r\r") == .failure(.adapter("010C", .unableToConnect)))
        #expect(read(.engineSpeed, "CAN ERROR\r\r") == .failure(.adapter("010C", .canError)))
        #expect(read(.engineSpeed, "BUS INIT: ...ERROR\r\r") == .failure(.adapter("010C", .busInitError)))
        #expect(read(.vehicleSpeed, "STOPPED\r\r") == .failure(.adapter("010D", .stopped)))
        #expect(read(.vehicleSpeed, "?\r\r") == .failure(.adapter("010D", .notUnderstood)))
        #expect(read(.engineSpeed, "41 0C 09\r\r") == .failure(.tooShort("010C", 1)))
        guard case .failure(let other) = read(.vehicleSpeed, "41 0C 09 B0\r\r") else {
            Issue.record("engine speed taken as vehicle speed")
            return
        }
        #expect(other.description == "010D: the answer '41 0C 09 B0' is not one to this request")
    }

    @Test func readsAnswersWithTheirCANHeadersElevenAndTwentyNineBitsSpacesOnOrOff() {
        // The data sheet's examples with headers on: the unit's address, the frame's length byte, the message.
        #expect(read(.vehicleSpeed, "7E8 03 41 0D 2A \r\r") == .success(.kilometresPerHour(42)))
        #expect(read(.vehicleSpeed, "7E803410D2A\r\r") == .success(.kilometresPerHour(42)))
        #expect(read(.vehicleSpeed, "18 DA F1 10 03 41 0D 2A \r\r") == .success(.kilometresPerHour(42)))
        #expect(read(.vehicleSpeed, "18DAF11003410D2A\r\r") == .success(.kilometresPerHour(42)))
        // A VIN in a first frame and two consecutive ones, a second unit's frame between them.
        let vin = "7E8 10 14 49 02 01 57 50 30\r7E9 03 41 0D 00\r7E8 21 5A 5A 5A 39 39 5A 54\r7E8 22 53 33 39 30 30 30 30\r\r"
        #expect(read(.vin, vin) == .success(.vin("WP0ZZZ99ZTS390000")))
    }

    @Test func mergesTheSupportedPIDsOfEveryControlUnitThatAnswers() {
        // The transmission lists none of A1-C0, the engine A6: together, A6 is there (either order).
        #expect(read(.supportedA1toC0, "41A000000000\r41A004000000\r\r") == .success(.supported([0xA6])))
        #expect(read(.supportedA1toC0, "7E9 06 41 A0 00 00 00 01\r7E8 06 41 A0 04 00 00 00\r\r")
                == .success(.supported([0xA6, 0xC0])))
    }

    @Test func readsAVINInTheFiveNumberedMessagesOfJ1850AndTheKLine() {
        let lines = "49 02 02 50 30 5A 5A\r49 02 01 00 00 00 57\r49 02 03 5A 39 39 5A\r49 02 04 54 53 33 39\r"
            + "49 02 05 30 30 30 30\r\r"
        #expect(read(.vin, lines) == .success(.vin("WP0ZZZ99ZTS390000")))
        // Four of the five: not a VIN.
        let four = read(.vin, "49020100000057\r49020250305A5A\r4902035A39395A\r49020454533339\r\r")
        #expect({ if case .failure = four { true } else { false } }(), "\(four)")
    }
}

/// The adapter's replies told apart, and its voltage reading.
struct ELM327ReplyTests {
    @Test func tellsOKTextAndDataApart() {
        #expect(ELM327Reply("ATE0\rOK\r\r", command: "ATE0") == .ok)
        #expect(ELM327Reply("OK\r\r", command: "ATL0") == .ok)
        #expect(ELM327Reply("ATZ\r\r\rELM327 v1.5\r\r", command: "ATZ") == .text("ELM327 v1.5"))
        #expect(ELM327Reply("AUTO, ISO 15765-4 (CAN 11/500) \r\r", command: "ATDP") == .text("AUTO, ISO 15765-4 (CAN 11/500)"))
        #expect(ELM327Reply("A6\r\r", command: "ATDPN") == .data(["A6"]), "a protocol number reads as hex")
        #expect(ELM327Reply("7E803410D37\r\r", command: "010D") == .data(["7E803410D37"]))
    }

    @Test func readsTheBatteryVoltage() {
        #expect(ELM327Voltage.volts(in: ELM327Reply("13.1V\r\r", command: "ATRV")) == 13.1)
        #expect(ELM327Voltage.volts(in: ELM327Reply("ATRV\r12.4V\r\r", command: "ATRV")) == 12.4)
        #expect(ELM327Voltage.volts(in: ELM327Reply("?\r\r", command: "ATRV")) == nil)
        #expect(ELM327Voltage.volts(in: ELM327Reply("ELM327 v1.5\r\r", command: "ATRV")) == nil)
    }
}
