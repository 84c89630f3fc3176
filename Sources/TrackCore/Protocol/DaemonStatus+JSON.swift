extension DaemonStatus {
    /// Writes the status as its `Codable` form would be encoded (keys sorted), without `JSONEncoder`'s cost.
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("epochs"); json.number(epochs)
            if let fixes { json.key("fixes"); fixes.writeJSON(to: &json) }
            json.key("input_problems"); json.number(inputProblems)
            if let lastAlert { json.key("last_alert"); lastAlert.writeJSON(to: &json) }
            if let lastFix { json.key("last_fix"); lastFix.writeJSON(to: &json) }
            json.member("last_fix_age", lastFixAge)
            if let lastPosition { json.key("last_position"); lastPosition.writeJSON(to: &json) }
            json.member("last_position_age", lastPositionAge)
            if let mail { json.key("mail"); mail.writeJSON(to: &json) }
            if let motion { json.key("motion"); motion.writeJSON(to: &json) }
            if let obd { json.key("obd"); obd.writeJSON(to: &json) }
            json.member("odometer", odometer)
            if let osmand { json.key("osmand"); osmand.writeJSON(to: &json) }
            json.key("position_fixes"); json.number(positionFixes)
            json.key("source"); source.writeJSON(to: &json)
            if let stick { json.key("stick"); stick.writeJSON(to: &json) }
            if let storage { json.key("storage"); storage.writeJSON(to: &json) }
            if let trip { json.key("trip"); trip.writeJSON(to: &json) }
            if let uplink { json.key("uplink"); uplink.writeJSON(to: &json) }
            json.key("version"); json.string(version)
        }
    }
}

extension RPCResponse<DaemonStatus> {
    /// The response as one line of JSON with its newline, as `JSONLines.encode` would write it.
    public var jsonLine: [UInt8] {
        var json = JSONWriter()
        json.object { json in
            if let error {
                json.key("error")
                json.object { json in
                    json.key("code"); json.number(error.code)
                    json.key("message"); json.string(error.message)
                }
            }
            json.key("id")
            switch id {
            case .number(let number): json.number(number)
            case .string(let text): json.string(text)
            case nil: json.null()
            }
            json.key("jsonrpc"); json.string(jsonrpc)
            if let result { json.key("result"); result.writeJSON(to: &json) }
        }
        return json.bytes + [UInt8(ascii: "\n")]
    }
}

extension SourceStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("address"); json.string(address)
            if let chosen { json.key("chosen"); json.string(chosen) }
            json.key("detail"); json.string(detail)
            if let reason { json.key("reason"); json.string(reason) }
            json.key("state"); json.string(state.rawValue)
            json.member("state_age", stateAge)
        }
    }
}

extension OBDStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            if let adapter { json.key("adapter"); json.string(adapter) }
            json.key("address"); json.string(address)
            json.key("car"); json.string(car.rawValue)
            if let carDetail { json.key("car_detail"); json.string(carDetail) }
            if let chosen { json.key("chosen"); json.string(chosen) }
            json.key("detail"); json.string(detail)
            if let engineRunning { json.key("engine_running"); json.bool(engineRunning) }
            if let logVIN { json.key("log_vin"); json.string(logVIN) }
            json.member("odometer", odometer)
            if let odometerSupported { json.key("odometer_supported"); json.bool(odometerSupported) }
            if let protocolName { json.key("protocol"); json.string(protocolName) }
            json.member("reading_age", readingAge)
            if let reason { json.key("reason"); json.string(reason) }
            json.member("rpm", rpm)
            json.member("speed", speed)
            json.key("state"); json.string(state.rawValue)
            if let vin { json.key("vin"); json.string(vin) }
            json.member("volts", volts)
        }
    }
}

extension StorageStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("detail"); json.string(detail)
            json.key("dropped_points"); json.number(droppedPoints)
            json.key("pending_points"); json.number(pendingPoints)
            json.key("pending_records"); json.number(pendingRecords)
            json.key("state"); json.string(state.rawValue)
            json.member("state_age", stateAge)
        }
    }
}

extension StickCopy {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("chain_head"); json.string(chainHead)
            json.key("filesystem"); json.string(filesystem)
            json.key("folder"); json.string(folder)
            json.key("id"); json.number(Int(id))
            json.key("label"); json.string(label)
            json.member("problem", problem)
            json.key("removed"); json.number(removed)
            json.key("time"); json.time(time)
            json.key("unchanged"); json.number(unchanged)
            json.key("written"); json.number(written)
        }
    }
}

extension MailStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("monthly"); json.bool(monthly)
            json.key("to")
            json.array { json in
                for address in to { json.string(address) }
            }
        }
    }
}

extension UplinkStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("acknowledged"); json.number(acknowledged)
            json.key("backlog_bytes"); json.number(backlogBytes)
            json.key("backlog_points"); json.number(backlogPoints)
            json.key("broker"); json.string(broker)
            json.member("detail", detail)
            json.key("in_flight"); json.number(inFlight)
            json.member("last_acknowledged", lastAcknowledged)
            json.member("last_acknowledged_time", lastAcknowledgedTime)
            json.key("state"); json.string(state.rawValue)
            json.member("state_age", stateAge)
        }
    }
}

extension TripView {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("bridged_gaps"); json.number(bridgedGaps)
            json.key("distance_m"); json.number(distance)
            json.member("duration", duration)
            json.member("end", end)
            json.key("idle_alerts"); json.number(idleAlerts)
            json.key("kind"); json.string(kind.rawValue)
            json.key("measured_distance_m"); json.number(measuredDistance)
            json.key("number"); json.number(Int(number.rawValue))
            json.member("purpose", purpose)
            json.member("start", start)
        }
    }
}

extension MotionStatus {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.member("since", since)
            json.key("state"); json.string(state.rawValue)
        }
    }
}

extension IdleAlert {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            if let position {
                json.key("position")
                json.object { json in
                    json.key("latitude"); json.number(position.latitude)
                    json.key("longitude"); json.number(position.longitude)
                }
            }
            json.key("stationary_since"); json.time(stationarySince)
            json.key("time"); json.time(time)
            json.key("trip"); json.number(Int(tripNumber.rawValue))
        }
    }
}

extension EngineStatistics {
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("accepted"); json.number(accepted)
            json.key("position_not_trusted"); EngineStatistics.write(positionRejections, to: &json)
            json.key("rejected"); json.number(rejected)
            json.key("rejected_by_reason"); EngineStatistics.write(rejections, to: &json)
            json.key("speed_not_used"); EngineStatistics.write(speedRejections, to: &json)
            json.key("speed_only"); json.number(speedOnly)
        }
    }

    private static func write<Reason: RawRepresentable>(_ counts: [Reason: Int], to json: inout JSONWriter)
    where Reason.RawValue == String {
        json.object { json in
            for (name, count) in counts.map({ ($0.key.rawValue, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                json.key(text: name)
                json.number(count)
            }
        }
    }
}

extension Fix {
    /// Writes the fix in its `Codable` form (gpsd TPV names, every number exact), not the rounded `tpvJSON`.
    func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.member("alt", altitudeMSL)
            json.key("class"); json.string("TPV")
            json.member("eph", eph)
            json.member("ephSource", ephSource?.rawValue)
            json.member("geoidSep", geoidSeparation)
            json.member("hdop", hdop)
            if mode.hasPosition {
                json.member("lat", latitude)
                json.member("lon", longitude)
            }
            json.key("mode"); json.number(mode.rawValue)
            json.member("nSat", satellitesInView)
            json.member("pdop", pdop)
            json.member("speed", speed)
            if mode.hasPosition { json.key("status"); json.number(quality.rawValue) }
            json.member("time", time)
            json.member("track", track)
            json.member("uSat", satellitesUsed)
            json.member("vdop", vdop)
        }
    }
}
