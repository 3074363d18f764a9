#include "SandboxPage.h"

#include "AdaptiveSplitter.h"
#include "BackendPanel.h"
#include "PolicyPanel.h"

#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace sandbox {

SandboxPage::SandboxPage(Client *client, QWidget *parent)
    : QWidget(parent)
    , m_policy(new PolicyPanel(client))
    , m_backends(new BackendPanel(client))
{
    setObjectName(QStringLiteral("sandboxPage"));

    auto *note = new QLabel(this);
    note->setObjectName(QStringLiteral("independenceNote"));
    note->setWordWrap(true);
    note->setText(tr("The <b>policy</b> decides what sandboxed commands may do: files, processes, network and "
                     "host execution. The <b>backend</b> is the launcher that enforces it. They are independent: "
                     "changing the backend does not change the policy. Commands already running keep the backend "
                     "that started them."));

    auto *policyGroup = new QGroupBox(tr("Policy"), this);
    policyGroup->setObjectName(QStringLiteral("policyGroup"));
    auto *policyScroll = new QScrollArea(policyGroup);
    policyScroll->setObjectName(QStringLiteral("policyScroll"));
    policyScroll->setWidgetResizable(true);
    policyScroll->setFrameShape(QFrame::NoFrame);
    policyScroll->setWidget(m_policy);
    // Never scroll sideways: the panel gets the width its widgets need.
    policyScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    policyScroll->setMinimumWidth(m_policy->minimumSizeHint().width()
                                  + policyScroll->verticalScrollBar()->sizeHint().width() + 4);
    // Small enough that a 700 px high window leaves the backend pane its activation steps;
    // the policy summary leads, so even this much shows what matters most.
    policyScroll->setMinimumHeight(80);
    auto *policyLayout = new QVBoxLayout(policyGroup);
    policyLayout->addWidget(policyScroll, 1);
    policyLayout->addWidget(m_policy->footer());

    auto *backendGroup = new QGroupBox(tr("Backend"), this);
    backendGroup->setObjectName(QStringLiteral("backendGroup"));
    auto *backendLayout = new QVBoxLayout(backendGroup);
    backendLayout->addWidget(m_backends);

    // Side by side on a wide window; stacked (policy above the backend) on a narrow one.
    auto *split = new AdaptiveSplitter(1100, this);
    split->setObjectName(QStringLiteral("sandboxSplitter"));
    split->addWidget(policyGroup);
    split->addWidget(backendGroup);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(split, 1);
}

} // namespace sandbox
