import Foundation
import Testing
import TestSupport
@testable import TrackWeb
import TrackWebClient

struct DeviceRegistryTests {
    let start = ContinuousClock.now
    let wallTime: Int64 = 1_795_886_895
    /// The owner's phone and a stranger's, as trackd-web gives their addresses.
    let owner = "192.168.4.23"
    let stranger = "192.168.4.66"

    @Test func pairsADeviceOnceWithACode() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        #expect(code.count == 8 && code.allSatisfy(\.isNumber))
        guard case .paired(let device, let token) = try registry.pair(
            code: String(code.prefix(4)) + " " + String(code.dropFirst(4)), deviceName: "Anna's phone", from: owner, at: start,
            wallTime: wallTime) else {
            Issue.record("the code did not pair")
            return
        }
        #expect(device.name == "Anna's phone" && device.role == .driver && device.revokedAt == nil)
        #expect(try registry.device(token: token, wallTime: wallTime) == device)
        #expect(try registry.pair(code: code, deviceName: "again", from: owner, at: start, wallTime: wallTime) == .wrongCode(inARow: 1))
    }

    @Test func refusesACodeOlderThanTenMinutes() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .viewer, at: start)
        #expect(registry.hasPendingCodes(at: start + .seconds(599)))
        #expect(!registry.hasPendingCodes(at: start + .seconds(600)))
        #expect(try registry.pair(code: code, deviceName: "late", from: owner, at: start + .seconds(600), wallTime: wallTime)
                == .wrongCode(inARow: 1))
    }

    @Test func givesTheCodesRoleToTheDevice() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .viewer, at: start)
        guard case .paired(let device, _) = try registry.pair(code: code, deviceName: "", from: owner, at: start, wallTime: wallTime)
        else {
            Issue.record("the code did not pair")
            return
        }
        #expect(device.role == .viewer)
        #expect(device.name == "device")
    }

    @Test func refusesARevokedDeviceAtItsNextRequest() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        guard case .paired(let device, let token) = try registry.pair(
            code: registry.newCode(role: .driver, at: start), deviceName: "phone", from: owner, at: start, wallTime: wallTime)
        else {
            Issue.record("the code did not pair")
            return
        }
        #expect(try registry.device(token: token, wallTime: wallTime) != nil)
        let revoked = try registry.revoke(id: device.id, wallTime: wallTime + 60)
        #expect(revoked?.revokedAt == wallTime + 60)
        #expect(try registry.device(token: token, wallTime: wallTime + 61) == nil)
        #expect(try registry.revoke(id: 99, wallTime: wallTime) == nil)
    }

    @Test func keepsPairingsAcrossRestartsWithoutStoringTheToken() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("devices.sqlite")
        var token = ""
        do {
            let registry = try DeviceRegistry(path: path)
            guard case .paired(_, let given) = try registry.pair(
                code: registry.newCode(role: .driver, at: start), deviceName: "phone", from: owner, at: start, wallTime: wallTime)
            else {
                Issue.record("the code did not pair")
                return
            }
            token = given
        }
        let reopened = try DeviceRegistry(path: path)
        #expect(try reopened.device(token: token, wallTime: wallTime)?.name == "phone")
        #expect(try reopened.device(token: String(token.reversed()), wallTime: wallTime) == nil)
        let stored = try sqlite3(path, "SELECT * FROM device")
        #expect(!stored.contains(token))
    }

    @Test func slowsWrongCodesAfterFiveInARowAndANewCodeStartsAgain() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        let wrong = code == "00000000" ? "00000001" : "00000000"
        var outcomes: [DeviceRegistry.PairingOutcome] = []
        for _ in 0..<20 {
            outcomes.append(try registry.pair(code: wrong, deviceName: "x", from: stranger, at: start, wallTime: wallTime))
        }
        #expect(Array(outcomes.prefix(5)) == (1...5).map { .wrongCode(inARow: $0) })
        #expect(outcomes.dropFirst(5).allSatisfy { $0 == .throttled(retryAfter: .seconds(1)) })
        // Even the right code waits at the guessing address while the throttle holds; someone at the board making a
        // new code lifts it.
        #expect(try registry.pair(code: code, deviceName: "x", from: stranger, at: start, wallTime: wallTime)
                == .throttled(retryAfter: .seconds(1)))
        let fresh = registry.newCode(role: .driver, at: start)
        guard case .paired = try registry.pair(code: fresh, deviceName: "x", from: stranger, at: start, wallTime: wallTime) else {
            Issue.record("a new code did not pair after the throttle was lifted")
            return
        }
    }

    @Test func aStrangerGuessingFromOneAddressDoesNotKeepTheOwnerFromPairing() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        let wrong = code == "00000000" ? "00000001" : "00000000"
        for _ in 0..<20 {
            _ = try registry.pair(code: wrong, deviceName: "x", from: stranger, at: start, wallTime: wallTime)
        }
        #expect(try registry.pair(code: wrong, deviceName: "x", from: stranger, at: start, wallTime: wallTime)
                == .throttled(retryAfter: .seconds(1)))
        guard case .paired = try registry.pair(code: code, deviceName: "phone", from: owner, at: start, wallTime: wallTime) else {
            Issue.record("the owner's right code was refused while a stranger guessed")
            return
        }
    }

    @Test func tellsTheJournalOfWrongCodesAtTheFirstTenthAndHundredthWithTheirCounts() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        let wrong = code == "00000000" ? "00000001" : "00000000"
        var reports: [PairingAttempts] = []
        for attempt in 0..<150 {
            _ = try registry.pair(code: wrong, deviceName: "x", from: attempt < 3 ? owner : stranger, at: start,
                                  wallTime: wallTime) { reports.append($0) }
        }
        #expect(reports.map(\.total) == [1, 10, 100])
        #expect(reports.last == PairingAttempts(wrong: 8, refused: 92, addresses: 2, lastAddress: stranger))
        // A new code made at the board hears the rest.
        var rest: [PairingAttempts] = []
        _ = registry.newCode(role: .driver, at: start) { rest.append($0) }
        #expect(rest.map(\.total) == [150])
        var none: [PairingAttempts] = []
        _ = registry.newCode(role: .driver, at: start) { none.append($0) }
        #expect(none.isEmpty)
    }

    @Test func tenThousandWrongCodesFromEverNewAddressesSpendTheCodesWaiting() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"))
        let code = registry.newCode(role: .driver, at: start)
        let wrong = code == "00000000" ? "00000001" : "00000000"
        for attempt in 0..<PairingGuard.wrongCodesPerCode {
            _ = try registry.pair(code: wrong, deviceName: "x", from: "2001:db8::\(String(attempt, radix: 16))", at: start,
                                  wallTime: wallTime)
        }
        #expect(try registry.pair(code: code, deviceName: "x", from: owner, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1), "the code was spent")
        guard case .paired = try registry.pair(code: registry.newCode(role: .driver, at: start), deviceName: "x",
                                               from: owner, at: start, wallTime: wallTime) else {
            Issue.record("a new code did not pair")
            return
        }
    }

    @Test func theOwnerCodeClaimsABoardNoDeviceHasPairedWithOnceAsTheDriver() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"), ownerCode: "4821-7730-1193")
        #expect(registry.isClaimable)
        // Typed as a phone's keyboard gives it: spaces for dashes, small letters for capitals.
        #expect(try registry.pair(code: "4821 7730 1194", deviceName: "x", from: stranger, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1))
        guard case .paired(let device, let token) = try registry.pair(
            code: "4821 7730 1193", deviceName: "Anna's phone", from: owner, at: start, wallTime: wallTime) else {
            Issue.record("the owner code did not claim the board")
            return
        }
        #expect(device.role == .driver && device.name == "Anna's phone")
        #expect(try registry.device(token: token, wallTime: wallTime) == device)
        #expect(!registry.isClaimable)
        #expect(try registry.pair(code: "482177301193", deviceName: "again", from: owner, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1), "the owner code claims once")
        // trackd-web starting again finds the board claimed.
        let again = try DeviceRegistry(path: folder.file("devices.sqlite"), ownerCode: "4821-7730-1193")
        #expect(!again.isClaimable)
        #expect(try again.pair(code: "482177301193", deviceName: "x", from: owner, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1))
    }

    @Test func aBoardPairedWithACodeCannotBeClaimed() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"), ownerCode: "secret-owner-code")
        _ = try registry.pair(code: registry.newCode(role: .viewer, at: start), deviceName: "office", from: owner,
                              at: start, wallTime: wallTime)
        #expect(!registry.isClaimable)
        #expect(try registry.pair(code: "SECRETOWNERCODE", deviceName: "x", from: owner, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1))
    }

    @Test func ownerCodesLettersMayBeTypedSmall() throws {
        let folder = try TemporaryFolder()
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"), ownerCode: "Tamm-GmbH-2026")
        guard case .paired = try registry.pair(code: "tamm gmbh 2026", deviceName: "x", from: owner, at: start,
                                               wallTime: wallTime) else {
            Issue.record("not claimed")
            return
        }
    }

    @Test func guessingTheOwnerCodeIsThrottledAndTenThousandWrongCodesSpendIt() throws {
        let folder = try TemporaryFolder()
        let owner = "48217730"
        let registry = try DeviceRegistry(path: folder.file("devices.sqlite"), ownerCode: owner)
        for attempt in 0..<5 {
            #expect(try registry.pair(code: "0000000\(attempt)", deviceName: "x", from: stranger, at: start, wallTime: wallTime)
                    == .wrongCode(inARow: attempt + 1))
        }
        guard case .throttled = try registry.pair(code: owner, deviceName: "x", from: stranger, at: start, wallTime: wallTime)
        else {
            Issue.record("the sixth attempt from one address was looked at at once")
            return
        }
        for attempt in 0..<PairingGuard.wrongCodesPerCode {
            _ = try registry.pair(code: "1", deviceName: "x", from: "2001:db8::\(String(attempt, radix: 16))", at: start,
                                  wallTime: wallTime)
        }
        #expect(!registry.isClaimable)
        #expect(try registry.pair(code: owner, deviceName: "x", from: self.owner, at: start, wallTime: wallTime)
                == .wrongCode(inARow: 1), "the owner code was spent")
        // Someone at the board makes a code: the owner code works again.
        _ = registry.newCode(role: .driver, at: start)
        #expect(registry.isClaimable)
        guard case .paired = try registry.pair(code: owner, deviceName: "x", from: self.owner, at: start, wallTime: wallTime)
        else {
            Issue.record("not claimed after a code was made")
            return
        }
    }

    @Test func noOwnerCodeNoClaim() throws {
        let folder = try TemporaryFolder()
        #expect(!(try DeviceRegistry(path: folder.file("devices.sqlite"))).isClaimable)
        #expect(!(try DeviceRegistry(path: folder.file("other.sqlite"), ownerCode: " - ")).isClaimable)
    }
}
