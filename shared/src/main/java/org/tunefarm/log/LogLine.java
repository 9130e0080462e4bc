package org.tunefarm.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/** One line per record: {@code 2026-12-03 08:30:01 INFO FarmVerticle: agent board-1 joined ...}, a stack trace after it when there is one. */
public final class LogLine extends Formatter {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    @Override public String format(LogRecord r) {
        String source = r.getLoggerName() == null ? "" : r.getLoggerName().substring(r.getLoggerName().lastIndexOf('.') + 1);
        StringBuilder b = new StringBuilder().append(TIME.format(Instant.ofEpochMilli(r.getMillis()))).append(' ')
                .append(r.getLevel().getName()).append(' ').append(source).append(": ").append(formatMessage(r)).append('\n');
        if (r.getThrown() != null) {
            StringWriter w = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(w));
            b.append(w);
        }
        return b.toString();
    }
}
