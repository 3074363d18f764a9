#pragma once

#include <QString>

namespace sandbox {

class JsonReader;

// Wording shared by the protocol objects' error messages (internal to engine/protocol).

// Quotes user text for an error message without letting a huge value flood it: at most 80
// characters are shown and control characters become U+FFFD.
QString quotedForMessage(const QString &text);

// Reads plain text at `key` (required or optional) and fails the reader when it is longer
// than `maxLength`; the message is translated in `context`, the caller's class.
QString readBoundedPlainText(JsonReader &reader, const QString &key, bool required, qsizetype maxLength,
                             const char *context);

} // namespace sandbox
