#pragma once

#include "protocol/ActivationEvent.h"

#include <QCoreApplication>
#include <QString>

namespace sandbox {

// Translated names of the activation steps, shared by the window and the tray.
class ActivationText final
{
    Q_DECLARE_TR_FUNCTIONS(sandbox::ActivationText)

public:
    static QString stepTitle(ActivationStep step);
    static QString failureSummary(const ActivationResult &result, const QString &candidateName,
                                  const QString &activeName);
};

} // namespace sandbox
