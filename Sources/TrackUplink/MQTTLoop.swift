import CMosquitto
import Synchronization
import TrackThreads

/// The thread that runs one client's connection (`mosquitto_loop`, a round at most a second long) until the
/// connection ends or `stop` asks; it ends by itself and is joined, never cancelled.
///
/// libmosquitto's own thread (`mosquitto_loop_start`) ends only when woken through its socket pair at the right
/// moment or when cancelled (`pthread_cancel`). A cancel lands wherever the thread is: in a write to the broker,
/// made with libmosquitto's packet lock held, or in one of trackd's callbacks, made with its callback lock held; the
/// lock then stays taken and the next close waits on it forever. ThreadSanitizer stopped trackd at such a cancel
/// (a thread that ended inside an intercepted call) when a lost connection was closed.
final class MQTTLoop: Sendable {
    private let thread: JoinableThread
    private let context: Context

    /// Starts running `client`'s connection to `broker`; `ended` is called on the thread, last, with
    /// `mosquitto_loop`'s code (0: `stop` asked).
    init(_ client: OpaquePointer, broker: String, ended: @escaping @Sendable (Int32) -> Void) throws(MQTTError) {
        let context = Context(client: Client(pointer: client), ended: ended)
        do {
            thread = try JoinableThread(name: "mqtt") { context.run() }
        } catch {
            throw .connect(broker: broker, reason: "\(error)")
        }
        self.context = context
    }

    /// Asks the thread to end after its current round and waits until it has (within about a second: a round
    /// waits on the socket at most that long).
    func stop() {
        context.stopping.store(true, ordering: .releasing)
        thread.join()
    }

    /// libmosquitto's client, used by the thread while it runs (the owner destroys it only after `stop`).
    private struct Client: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// What the thread reads: the client, the flag `stop` sets, and whom to tell that it ended.
    private final class Context: Sendable {
        let client: Client
        let stopping = Atomic(false)
        let ended: @Sendable (Int32) -> Void

        init(client: Client, ended: @escaping @Sendable (Int32) -> Void) {
            self.client = client
            self.ended = ended
        }

        /// Rounds of network work until the connection ends (any error: the client is used for one connection)
        /// or a stop is asked.
        func run() {
            var code = MOSQ_ERR_SUCCESS.rawValue
            while !stopping.load(ordering: .acquiring) {
                code = mosquitto_loop(client.pointer, 1000, 1)
                if code != MOSQ_ERR_SUCCESS.rawValue { break }
            }
            ended(code)
        }
    }
}
