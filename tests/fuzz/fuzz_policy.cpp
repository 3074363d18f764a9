#include "FuzzSupport.h"
#include "protocol/BackendRef.h"
#include "protocol/Policy.h"

using namespace sandbox;

// Policies arrive from clients and from the settings file; the same bytes are also fed to
// the string validators (paths, domains, credential names, variables, headers, SSH key
// fingerprints, upstream proxy URLs, refs, plain text) directly.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)Policy::pathProblem(text);
    (void)Policy::domainProblem(text);
    (void)PolicyCredential::nameProblem(text);
    (void)PolicyCredential::envProblem(text);
    (void)PolicyCredential::headerProblem(text);
    (void)PolicySshAgent::fingerprintProblem(text);
    (void)PolicySshAgent::confirmFromName(text);
    if (PolicyUpstreamProxy::urlProblem(text).isEmpty()) {
        const PolicyUpstreamProxy proxy{ text, QString() };
        if (proxy.host().isEmpty() || proxy.port() == 0)
            fuzz::contractBroken("an accepted upstream proxy URL has no host or port", text);
    }
    (void)JsonReader::plainTextProblem(text);
    const Result<BackendRef> ref = BackendRef::parse(text);
    if (ref.ok()) {
        if (!ref.value().isValid() || ref.value().toString() != text)
            fuzz::contractBroken("a parsed ref is not canonical", text);
    } else {
        fuzz::checkError(ref.error());
    }

    const std::optional<QJsonObject> object = fuzz::parseInput(data, size);
    if (!object)
        return 0;
    fuzz::checkDecoder<Policy>(*object, [](const QJsonValue &v) { return Policy::fromJson(v); });
    const Result<Policy> policy = Policy::fromJson(*object);
    if (policy.ok() && !policy.value().validate().ok())
        fuzz::contractBroken("a decoded policy fails validate()", policy.value().validate().error().toString());
    return 0;
}
