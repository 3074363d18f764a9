#pragma once

#include <QWidget>

namespace sandbox {

class BackendPanel;
class Client;
class PolicyPanel;

// /studio/sandbox: the policy and the backend side by side, independent of each other.
class SandboxPage final : public QWidget
{
    Q_OBJECT

public:
    explicit SandboxPage(Client *client, QWidget *parent = nullptr);

    PolicyPanel *policyPanel() const { return m_policy; }
    BackendPanel *backendPanel() const { return m_backends; }

private:
    PolicyPanel *m_policy = nullptr;
    BackendPanel *m_backends = nullptr;
};

} // namespace sandbox
