// Atom packs: source-qualified refs, isolation of packs that contribute the same kind,
// disabling/removing the pack of the active backend (falls back to the engine's fallback, or is
// refused), and settings that return with the same pack identity only.
#include "EngineRig.h"
#include "TestPack.h"
#include "core/secrets/PlaintextSecretStore.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace sandbox;
using namespace sandbox::test;

namespace {

const BackendRef cloudA = BackendRef::atomPack(QStringLiteral("pack-a"), QStringLiteral("cloud"));
const BackendRef cloudB = BackendRef::atomPack(QStringLiteral("pack-b"), QStringLiteral("cloud"));

std::shared_ptr<FaultPlan> planWithSecret()
{
    auto plan = std::make_shared<FaultPlan>();
    plan->fields.append(FieldSpec::make(QStringLiteral("apiKey"), FieldSpec::Type::Secret, QStringLiteral("API key")));
    return plan;
}

// Installs a pack with one "cloud" backend from `publisher`, its launcher following `plan`.
Status installCloudPack(Engine &engine, const QString &id, const QString &publisher,
                        const std::shared_ptr<FaultPlan> &plan)
{
    return engine.installPack(std::make_shared<TestPack>(id, publisher, QStringList{ QStringLiteral("cloud") }, plan));
}

// Stores a "label" setting and replaces the "apiKey" secret of `ref`.
Status setLabelAndKey(Engine &engine, const BackendRef &ref, const QString &label, const QString &key)
{
    return engine.updateSettings(ref, values({ { QStringLiteral("label"), label } }),
                                 { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, key } });
}

QString labelOf(const Engine &engine, const BackendRef &ref)
{
    return engine.settings(ref).value().values.values.value(QStringLiteral("label")).toString();
}

std::optional<BackendInfo> listed(const Engine &engine, const BackendRef &ref)
{
    for (const BackendInfo &info : engine.backends()) {
        if (info.ref == ref)
            return info;
    }
    return std::nullopt;
}

} // namespace

class PacksTest final : public QObject
{
    Q_OBJECT

private slots:
    void packBackendsAreSourceQualified();
    void packsWithTheSameKindStayIsolated();
    void invalidPacksAreRefused();
    void disablingTheActivePackFallsBackToAuto();
    void removingTheActivePackFallsBackToAuto();
    void packOperationIsRefusedWhenFallbackFails();
    void settingsReturnWithTheSamePackIdentity();
    void anotherPublisherDoesNotInheritSettingsOrSecrets();
    void availabilityIsProbedWithTheSavedSettings();
};

void PacksTest::packBackendsAreSourceQualified()
{
    EngineRig rig;
    auto plan = std::make_shared<FaultPlan>();
    QSignalSpy changed(rig.engine.get(), &Engine::backendsChanged);
    QVERIFY(rig.engine
                ->installPack(std::make_shared<TestPack>(QStringLiteral("pack-a"), QStringLiteral("Publisher A"),
                                                         QStringList{ QStringLiteral("cloud"), QStringLiteral("auto") },
                                                         plan))
                .ok());
    QVERIFY(changed.size() >= 1);
    const std::optional<BackendInfo> info = listed(*rig.engine, cloudA);
    QVERIFY(info);
    QCOMPARE(info->sourceLabel, QStringLiteral("Test pack pack-a"));
    // A pack never provides a built-in kind: its "auto" is refused, with the reason, and
    // the built-in one is untouched.
    QVERIFY(!listed(*rig.engine, BackendRef::atomPack(QStringLiteral("pack-a"), QStringLiteral("auto"))));
    QVERIFY(listed(*rig.engine, EngineRig::fallbackRef()));
    QCOMPARE(rig.engine->packs().size(), 1);
    QCOMPARE(rig.engine->packs().first().backends, QList<BackendRef>{ cloudA });
    QVERIFY(rig.engine->packs()
                .first()
                .refused.join(QLatin1Char(' '))
                .contains(QStringLiteral("auto is a built-in backend and is never provided by a pack")));
    QVERIFY(rig.engine->packs().first().enabled);
    QTRY_VERIFY(listed(*rig.engine, cloudA)->availability.available);

    const ActivationResult result = rig.activate(cloudA);
    QVERIFY2(result.ok, qPrintable(result.error.toString()));
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("atom-pack:pack-a:cloud"));
    const QJsonObject packs = readJson(QDir(rig.configDir).filePath(QStringLiteral("packs.json")));
    QCOMPARE(packs.value(QStringLiteral("packs"))
                 .toObject()
                 .value(QStringLiteral("pack-a"))
                 .toObject()
                 .value(QStringLiteral("publisher"))
                 .toString(),
             QStringLiteral("Publisher A"));
}

void PacksTest::packsWithTheSameKindStayIsolated()
{
    EngineRig rig; // plaintext secrets: secrets.json shows where each secret went
    auto planA = planWithSecret();
    auto planB = planWithSecret();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), planA).ok());
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-b"), QStringLiteral("B"), planB).ok());

    QVERIFY(setLabelAndKey(*rig.engine, cloudA, QStringLiteral("a"), QStringLiteral("key-a")).ok());
    QCOMPARE(labelOf(*rig.engine, cloudA), QStringLiteral("a"));
    QCOMPARE(labelOf(*rig.engine, cloudB), QStringLiteral("default"));
    QVERIFY(rig.engine->settings(cloudA).value().secretsConfigured.value(QStringLiteral("apiKey")));
    QVERIFY(!rig.engine->settings(cloudB).value().secretsConfigured.value(QStringLiteral("apiKey")));

    QVERIFY(rig.activate(cloudB, values({ { QStringLiteral("label"), QStringLiteral("b") } })).ok);
    QVERIFY(rig.activate(cloudA).ok);
    // Each pack's launchers got their own settings and secrets only.
    QCOMPARE(planB->configured.size(), 1);
    QCOMPARE(planB->configured.last().values.values.value(QStringLiteral("label")).toString(), QStringLiteral("b"));
    QVERIFY(!planB->configured.last().secrets.contains(QStringLiteral("apiKey")));
    QCOMPARE(planA->configured.size(), 1);
    QCOMPARE(planA->configured.last().secrets.value(QStringLiteral("apiKey")), QStringLiteral("key-a"));
    // B's launcher was replaced by A's and disposed; A's own launchers were untouched.
    QTRY_COMPARE(planB->disposeSuccesses, 1);
    QCOMPARE(planA->disposeCalls, 0);

    const QJsonObject backends = rig.settingsFile().value(QStringLiteral("backends")).toObject();
    QCOMPARE(
        backends.value(QStringLiteral("atom-pack:pack-a:cloud")).toObject().value(QStringLiteral("label")).toString(),
        QStringLiteral("a"));
    QCOMPARE(
        backends.value(QStringLiteral("atom-pack:pack-b:cloud")).toObject().value(QStringLiteral("label")).toString(),
        QStringLiteral("b"));
    PlaintextSecretStore secrets(rig.configDir);
    QCOMPARE(secrets.read(cloudA, QStringLiteral("apiKey")).value(), std::optional<QString>(QStringLiteral("key-a")));
    QCOMPARE(secrets.read(cloudB, QStringLiteral("apiKey")).value(), std::nullopt);
}

void PacksTest::invalidPacksAreRefused()
{
    EngineRig rig;
    auto plan = std::make_shared<FaultPlan>();
    QVERIFY(!installCloudPack(*rig.engine, QStringLiteral("Bad Id"), QStringLiteral("P"), plan).ok());
    QVERIFY(!rig.engine
                 ->installPack(std::make_shared<TestPack>(QStringLiteral("ok"), QString(),
                                                          QStringList{ QStringLiteral("cloud") }, plan))
                 .ok());
    QVERIFY(!rig.engine
                 ->installPack(std::make_shared<TestPack>(QStringLiteral("ok"), QStringLiteral("P"),
                                                          QStringList{ QStringLiteral("Bad Kind") }, plan))
                 .ok());
    QVERIFY(
        !rig.engine
             ->installPack(std::make_shared<TestPack>(QStringLiteral("ok"), QStringLiteral("P"),
                                                      QStringList{ QStringLiteral("x"), QStringLiteral("x") }, plan))
             .ok());
    QVERIFY(rig.engine->packs().isEmpty());
    QCOMPARE(rig.engine->backends().size(), 2);
    QVERIFY(rig.engine
                ->installPack(std::make_shared<TestPack>(QStringLiteral("ok"), QStringLiteral("P"),
                                                         QStringList{ QStringLiteral("x") }, plan))
                .ok());
    QVERIFY(!rig.engine
                 ->installPack(std::make_shared<TestPack>(QStringLiteral("ok"), QStringLiteral("P"),
                                                          QStringList{ QStringLiteral("x") }, plan))
                 .ok());
}

void PacksTest::disablingTheActivePackFallsBackToAuto()
{
    EngineRig rig;
    auto plan = std::make_shared<FaultPlan>();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(rig.activate(cloudA, values({ { QStringLiteral("label"), QStringLiteral("mine") } })).ok);

    const Status disabled = await(rig.engine->disablePack(QStringLiteral("pack-a")));
    QVERIFY2(disabled.ok(), disabled.ok() ? "" : qPrintable(disabled.error().toString()));
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    QCOMPARE(rig.settingsFile().value(QStringLiteral("active")).toString(), QStringLiteral("builtin:host-fallback"));
    // The fallback went through the normal transaction (events and all).
    QCOMPARE(rig.observer->results().last().ref, EngineRig::fallbackRef());
    QVERIFY(rig.observer->results().last().ok);
    QVERIFY(!rig.engine->packs().first().enabled);

    // Listed, but cannot be activated while its pack is disabled; its settings stay on disk.
    const std::optional<BackendInfo> info = listed(*rig.engine, cloudA);
    QVERIFY(info);
    QVERIFY(!info->availability.available);
    QVERIFY(info->availability.reason.contains(QStringLiteral("disabled")));
    const ActivationResult refused = rig.activate(cloudA);
    QVERIFY(!refused.ok);
    QCOMPARE(refused.failedStep, ActivationStep::Validate);
    QCOMPARE(rig.settingsFile()
                 .value(QStringLiteral("backends"))
                 .toObject()
                 .value(QStringLiteral("atom-pack:pack-a:cloud"))
                 .toObject()
                 .value(QStringLiteral("label"))
                 .toString(),
             QStringLiteral("mine"));

    // The disabled state survives a restart; enabling brings the backend back.
    rig.restart();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(!rig.engine->packs().first().enabled);
    QVERIFY(await(rig.engine->enablePack(QStringLiteral("pack-a"))).ok());
    QVERIFY(rig.activate(cloudA).ok);
    QCOMPARE(plan->configured.last().values.values.value(QStringLiteral("label")).toString(), QStringLiteral("mine"));
}

void PacksTest::removingTheActivePackFallsBackToAuto()
{
    EngineRig rig;
    auto plan = std::make_shared<FaultPlan>();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(rig.activate(cloudA).ok);
    quint64 id = 0;
    QVERIFY(
        rig.engine
            ->spawn(rig.command({ QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec sleep 60") }),
                    &id)
            .ok());

    QVERIFY(await(rig.engine->removePack(QStringLiteral("pack-a"))).ok());
    QCOMPARE(rig.engine->activeRef(), EngineRig::fallbackRef());
    QVERIFY(rig.engine->packs().isEmpty());
    QVERIFY(!listed(*rig.engine, cloudA));
    // Its running process still belongs to it and can still be killed.
    QVERIFY(rig.engine->kill(id).ok());
    QTRY_COMPARE(plan->disposeSuccesses, 1);
    QVERIFY(!await(rig.engine->removePack(QStringLiteral("pack-a"))).ok());
}

void PacksTest::packOperationIsRefusedWhenFallbackFails()
{
    EngineRig rig;
    auto plan = std::make_shared<FaultPlan>();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(rig.activate(cloudA).ok);
    const QString packsPath = QDir(rig.configDir).filePath(QStringLiteral("packs.json"));
    const QByteArray packsBefore = readFile(packsPath);
    const QByteArray settingsBefore = readFile(rig.settingsPath());
    rig.fallbackPlan->unavailable = true;

    for (bool remove : { false, true }) {
        const Status status = await(remove ? rig.engine->removePack(QStringLiteral("pack-a"))
                                           : rig.engine->disablePack(QStringLiteral("pack-a")));
        QVERIFY(!status.ok());
        QVERIFY2(status.error().message.contains(QStringLiteral("builtin:host-fallback")),
                 qPrintable(status.error().message));
        QCOMPARE(rig.engine->activeRef(), cloudA);
        QCOMPARE(readFile(packsPath), packsBefore);
        QCOMPARE(readFile(rig.settingsPath()), settingsBefore);
        QCOMPARE(rig.engine->packs().size(), 1);
        QVERIFY(rig.engine->packs().first().enabled);
        QVERIFY(listed(*rig.engine, cloudA));
    }
    // Commands still run on the pack's backend.
    QVERIFY(rig.engine->spawn(rig.command({ QStringLiteral("/bin/true") })).ok());
}

void PacksTest::settingsReturnWithTheSamePackIdentity()
{
    EngineRig rig;
    auto plan = planWithSecret();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(rig.engine
                ->updateSettings(
                    cloudA, values({ { QStringLiteral("label"), QStringLiteral("kept") } }),
                    { SecretUpdate{ QStringLiteral("apiKey"), SecretUpdate::Action::Replace, QStringLiteral("key") } })
                .ok());
    QVERIFY(await(rig.engine->removePack(QStringLiteral("pack-a"))).ok());
    // Removed: not listed, but its settings stay on disk.
    QVERIFY(rig.settingsFile()
                .value(QStringLiteral("backends"))
                .toObject()
                .contains(QStringLiteral("atom-pack:pack-a:cloud")));
    rig.restart();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QCOMPARE(labelOf(*rig.engine, cloudA), QStringLiteral("kept"));
    QVERIFY(rig.engine->settings(cloudA).value().secretsConfigured.value(QStringLiteral("apiKey")));
}

void PacksTest::anotherPublisherDoesNotInheritSettingsOrSecrets()
{
    EngineRig rig;
    auto plan = planWithSecret();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QVERIFY(setLabelAndKey(*rig.engine, cloudA, QStringLiteral("original"), QStringLiteral("original-key")).ok());
    QVERIFY(await(rig.engine->removePack(QStringLiteral("pack-a"))).ok());

    auto other = planWithSecret();
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("Somebody Else"), other).ok());
    QCOMPARE(labelOf(*rig.engine, cloudA), QStringLiteral("default"));
    QVERIFY(!rig.engine->settings(cloudA).value().secretsConfigured.value(QStringLiteral("apiKey")));
    QVERIFY(rig.activate(cloudA).ok);
    QVERIFY(!other->configured.last().secrets.contains(QStringLiteral("apiKey")));
    QVERIFY(!readFile(QDir(rig.configDir).filePath(QStringLiteral("secrets.json"))).contains("original-key"));
    QVERIFY(rig.engine->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("Somebody Else")));
    // The original settings were set aside, not lost...
    QCOMPARE(rig.settingsFile()
                 .value(QStringLiteral("retained"))
                 .toObject()
                 .value(QStringLiteral("A/pack-a"))
                 .toObject()
                 .value(QStringLiteral("atom-pack:pack-a:cloud"))
                 .toObject()
                 .value(QStringLiteral("label"))
                 .toString(),
             QStringLiteral("original"));
    // ...and come back when the original publisher's pack returns.
    QVERIFY(rig.activate(EngineRig::fallbackRef()).ok);
    QVERIFY(rig.engine->updateSettings(cloudA, values({ { QStringLiteral("label"), QStringLiteral("theirs") } })).ok());
    QVERIFY(await(rig.engine->removePack(QStringLiteral("pack-a"))).ok());
    QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("A"), plan).ok());
    QCOMPARE(labelOf(*rig.engine, cloudA), QStringLiteral("original"));
}

// A backend whose runtime is reachable only with its saved settings (a label naming the
// endpoint; a secret key) is listed available with them: after they are saved, after a
// restart, and after its pack is disabled and enabled again, without being activated.
void PacksTest::availabilityIsProbedWithTheSavedSettings()
{
    EngineRig rig;
    auto endpointPlan = std::make_shared<FaultPlan>();
    endpointPlan->availableWithLabel = QStringLiteral("reachable");
    auto keyPlan = planWithSecret();
    keyPlan->fields.last().required = true;
    keyPlan->availableWithSecret = QStringLiteral("apiKey");
    const auto install = [&] {
        QVERIFY(
            installCloudPack(*rig.engine, QStringLiteral("pack-a"), QStringLiteral("Publisher A"), endpointPlan).ok());
        QVERIFY(installCloudPack(*rig.engine, QStringLiteral("pack-b"), QStringLiteral("Publisher B"), keyPlan).ok());
    };
    install();
    QTRY_COMPARE(listed(*rig.engine, cloudA)->availability.reason, QStringLiteral("no runtime at \"default\""));
    QTRY_VERIFY(listed(*rig.engine, cloudB)->availability.reason.contains(QStringLiteral("no apiKey")));
    QCOMPARE(listed(*rig.engine, cloudB)->missingSettings, QStringList{ QStringLiteral("apiKey") });

    QVERIFY(
        rig.engine->updateSettings(cloudA, values({ { QStringLiteral("label"), QStringLiteral("reachable") } })).ok());
    QVERIFY(setLabelAndKey(*rig.engine, cloudB, QStringLiteral("b"), QStringLiteral("key-b")).ok());
    QTRY_VERIFY2(listed(*rig.engine, cloudA)->availability.available,
                 qPrintable(listed(*rig.engine, cloudA)->availability.reason));
    QTRY_VERIFY2(listed(*rig.engine, cloudB)->availability.available,
                 qPrintable(listed(*rig.engine, cloudB)->availability.reason));
    QCOMPARE(listed(*rig.engine, cloudB)->missingSettings, QStringList());
    QVERIFY(!rig.engine->activeRef()); // nothing was activated on the way

    rig.restart();
    install();
    QTRY_VERIFY2(listed(*rig.engine, cloudA)->availability.available,
                 qPrintable(listed(*rig.engine, cloudA)->availability.reason));
    QTRY_VERIFY2(listed(*rig.engine, cloudB)->availability.available,
                 qPrintable(listed(*rig.engine, cloudB)->availability.reason));

    QVERIFY(await(rig.engine->disablePack(QStringLiteral("pack-a"))).ok());
    QVERIFY(!listed(*rig.engine, cloudA)->availability.available);
    QVERIFY(await(rig.engine->enablePack(QStringLiteral("pack-a"))).ok());
    QTRY_VERIFY2(listed(*rig.engine, cloudA)->availability.available,
                 qPrintable(listed(*rig.engine, cloudA)->availability.reason));

    // Settings that name no reachable runtime make it unavailable again, with the reason.
    QVERIFY(
        rig.engine->updateSettings(cloudA, values({ { QStringLiteral("label"), QStringLiteral("elsewhere") } })).ok());
    QTRY_COMPARE(listed(*rig.engine, cloudA)->availability.reason, QStringLiteral("no runtime at \"elsewhere\""));
}

QTEST_GUILESS_MAIN(PacksTest)
#include "tst_packs.moc"
