#include "FuzzSupport.h"
#include "protocol/ActivationEvent.h"
#include "protocol/BackendInfo.h"
#include "protocol/HostInteraction.h"
#include "protocol/Refusal.h"
#include "protocol/SpawnRequest.h"

using namespace sandbox;

// Every message a client or launcher may send; the input is offered to each decoder.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::optional<QJsonObject> object = fuzz::parseInput(data, size);
    if (!object)
        return 0;
    const QJsonValue value = *object;
    auto check = [&value](auto decode) {
        using T = std::decay_t<decltype(decode(value).value())>;
        fuzz::checkDecoder<T>(value, decode);
    };
    check([](const QJsonValue &v) { return BackendRef::fromJson(v); });
    check([](const QJsonValue &v) { return ActivationEvent::fromJson(v); });
    check([](const QJsonValue &v) { return CleanupWarning::fromJson(v); });
    check([](const QJsonValue &v) { return ActivationResult::fromJson(v); });
    check([](const QJsonValue &v) { return HostInteractionRequest::fromJson(v); });
    check([](const QJsonValue &v) { return HostInteractionResponse::fromJson(v); });
    check([](const QJsonValue &v) { return SpawnRequest::fromJson(v); });
    check([](const QJsonValue &v) { return ExitStatus::fromJson(v); });
    check([](const QJsonValue &v) { return ProcessInfo::fromJson(v); });
    check([](const QJsonValue &v) { return Availability::fromJson(v); });
    check([](const QJsonValue &v) { return BackendInfo::fromJson(v); });
    check([](const QJsonValue &v) { return PackInfo::fromJson(v); });
    check([](const QJsonValue &v) { return Refusal::fromJson(v); });

    Error error;
    const Status decoded = errorFromJson(value, QStringLiteral("error"), error);
    if (!decoded.ok())
        fuzz::checkError(decoded.error());
    else if (Error::fromJson(error.toJson()) != error)
        fuzz::contractBroken("an error does not survive its JSON form", error.toString());
    (void)Error::fromJson(*object).toString();
    return 0;
}
