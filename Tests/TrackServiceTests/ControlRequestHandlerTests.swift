import ControlSocket
import Foundation
import NIOCore
import Testing
import TrackCore
@testable import TrackService

struct ControlRequestHandlerTests {
    private let status = LiveStatus(address: "gpsd://localhost:2947", now: MonotonicInstant(nanoseconds: 0))

    private func answer(_ line: String) async throws -> [String: Any]? {
        let handler = ControlRequestHandler(status: status, clock: { MonotonicInstant(nanoseconds: 5_000_000_000) })
        switch await handler.handle(ByteBuffer(string: line)) {
        case .respond(let reply), .respondAndWatch(let reply, _):
            #expect(reply.readableBytesView.last == UInt8(ascii: "\n"))
            return try JSONSerialization.jsonObject(with: Data(reply.readableBytesView)) as? [String: Any]
        case .none:
            return nil
        }
    }

    private func errorCode(_ reply: [String: Any]?) -> Int? {
        (reply?["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func answersEveryMethodOfTheProtocolFromItsTopic() async throws {
        // Each method is handed to its topic (trips, car, places, reports) by the handler's switch, and each topic
        // switches over its own: a method named in the one and missing in the other would be "method not found".
        for method in ControlMethod.allCases {
            let reply = try await answer(#"{"jsonrpc":"2.0","id":1,"method":"\#(method.rawValue)"}"#)
            #expect(reply != nil && errorCode(reply) != -32601, "\(method.rawValue): \(String(describing: reply))")
        }
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"no.such"}"#)) == -32601)
    }

    @Test func saysHelloWithItsVersionAndMethods() async throws {
        let reply = try #require(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"test","protocol":1}}"#))
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["protocol"] as? Int == 1)
        #expect((result["methods"] as? [String])?.contains("status") == true)
        #expect(reply["id"] as? Int == 1)
    }

    @Test func keepsWhomAHelloActsForOnItsConnectionAndRefusesANameThatIsNotOneShortLine() async throws {
        let handler = ControlRequestHandler(status: status, clock: { MonotonicInstant(nanoseconds: 5_000_000_000) })
        var session = ControlSession()
        func hello(_ whom: String) async -> Int? {
            let params = try? JSONSerialization.data(withJSONObject: ["client": "trackd-web", "protocol": 1, "on_behalf_of": whom])
            let line = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":"# + String(decoding: params ?? Data(), as: UTF8.self) + "}"
            guard case .respond(let reply) = await handler.handle(ByteBuffer(string: line), peer: nil, session: &session),
                  let object = try? JSONSerialization.jsonObject(with: Data(reply.readableBytesView)) as? [String: Any] else {
                return nil
            }
            return errorCode(object)
        }
        #expect(await hello("device 3 (Anna's phone)") == nil)
        #expect(session.onBehalfOf == "device 3 (Anna's phone)")
        #expect(session.user(nil) == "unknown for device 3 (Anna's phone)")
        for wrong in ["", "two\nlines", String(repeating: "x", count: HelloParams.maxOnBehalfOfLength + 1)] {
            #expect(await hello(wrong) == -32602, "\(wrong.prefix(20))")
        }
        #expect(session.onBehalfOf == "device 3 (Anna's phone)", "a refused hello changes nothing")
        #expect(ControlSession().user(nil) == "unknown", "without on_behalf_of the user alone")
    }

    @Test func refusesAClientOfAnotherProtocolVersionWithAnAnswerItCanRead() async throws {
        let reply = try await answer(#"{"jsonrpc":"2.0","id":"a","method":"hello","params":{"client":"old","protocol":0}}"#)
        #expect(errorCode(reply) == -32002)
        #expect(reply?["id"] as? String == "a")
        let message = ((reply?["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("protocol 0"))
    }

    @Test func reportsTheLiveStatusWithAgesFromTheMonotonicClock() async throws {
        let reply = try #require(try await answer(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#))
        let result = try #require(reply["result"] as? [String: Any])
        let source = try #require(result["source"] as? [String: Any])
        #expect(source["address"] as? String == "gpsd://localhost:2947")
        #expect(source["state"] as? String == "connecting")
        #expect(source["state_age"] as? Double == 5)
        #expect(result["epochs"] as? Int == 0)
    }

    @Test func answersBadInputWithTheRightJSONRPCError() async throws {
        #expect(errorCode(try await answer("this is not json")) == -32700)
        #expect(errorCode(try await answer(#"{"id":1,"method":"status"}"#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1}"#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"launch"}"#)) == -32601)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":5}}"#)) == -32602)
        #expect(errorCode(try await answer(#"[{"jsonrpc":"2.0","id":1,"method":"status"}]"#)) == -32600, "no batches")
        #expect(errorCode(try await answer(#""status""#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1.5,"method":"status"}"#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":true,"method":"status"}"#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1,"method":42}"#)) == -32600)
        #expect(errorCode(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"show"}"#)) == -32602)
    }

    @Test func refusesDeeplyNestedParametersBeforeDecodingThemAndEchoesNothing() async throws {
        let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        let reply = try #require(try await answer(#"{"jsonrpc":"2.0","id":1,"method":"trips","params":{"x":"# + deep + "}}"))
        #expect(errorCode(reply) == -32700)
        let message = try #require((reply["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("nested deeper than 32 levels"), "\(message)")
        #expect(message.count < 200 && !message.contains("[["), "\(message.prefix(200))")
        // A request as deep as the limit is read.
        let nested = String(repeating: "[", count: 30) + String(repeating: "]", count: 30)
        let status = try await answer(#"{"jsonrpc":"2.0","id":2,"method":"status","params":{"x":"# + nested + "}}")
        #expect(errorCode(status) != -32700, "\(status ?? [:])")
    }

    @Test func answersARequestWithANullIdWithANullId() async throws {
        let reply = try #require(try await answer(#"{"jsonrpc":"2.0","id":null,"method":"status"}"#))
        #expect(reply["id"] is NSNull)
        #expect(reply["result"] != nil)
        let error = try #require(try await answer(#"{"jsonrpc":"2.0","id":1.5,"method":"status"}"#))
        #expect(error["id"] is NSNull, "an error about the id answers with a null id")
    }

    @Test func saysWhatIsWrongWithParametersInWordsNotSwiftTypes() async throws {
        func message(_ line: String) async throws -> String {
            ((try await answer(line)?["error"] as? [String: Any])?["message"] as? String) ?? ""
        }
        #expect(try await message(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":5,"protocol":1}}"#)
            == "invalid parameters for 'hello': 'params.client' should be text (a string)")
        #expect(try await message(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"x","protocol":"one"}}"#)
            == "invalid parameters for 'hello': 'params.protocol' should be a whole number")
        #expect(try await message(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1}}"#)
            == "invalid parameters for 'hello': 'params.client' is missing")
        #expect(try await message(#"{"jsonrpc":"2.0","id":1,"method":"start","params":{"kind":"commute"}}"#)
            == "invalid parameters for 'start': 'params.kind' cannot be 'commute'")
    }

    @Test func namesTheKnownMethodsForAnUnknownOne() async throws {
        let reply = try await answer(#"{"jsonrpc":"2.0","id":1,"method":"launch"}"#)
        let message = ((reply?["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("launch"))
        #expect(message.contains("status"))
    }

    @Test func sendsNothingBackForANotification() async throws {
        #expect(try await answer(#"{"jsonrpc":"2.0","method":"status"}"#) == nil)
    }

    @Test func startsAWatchOnlyWhenAsked() async {
        let handler = ControlRequestHandler(status: status, clock: { MonotonicInstant(nanoseconds: 0) })
        guard case .respondAndWatch = await handler.handle(ByteBuffer(string: #"{"jsonrpc":"2.0","id":3,"method":"watch"}"#)) else {
            Issue.record("watch did not start watching")
            return
        }
        guard case .respond = await handler.handle(ByteBuffer(string: #"{"jsonrpc":"2.0","id":4,"method":"status"}"#)) else {
            Issue.record("status started a watch")
            return
        }
    }
}
