package bench.catalog.test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the application logs while it is open: a handler on the root logger, beside the console's,
 * so it sees every record that passes the levels configured for the application (a category at
 * OFF makes none) and nothing that does not.
 */
final class LogCapture implements AutoCloseable {

    private final Logger root = Logger.getLogger("");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord logRecord) {
            records.add(logRecord);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture() {
    }

    static LogCapture start() {
        LogCapture capture = new LogCapture();
        capture.root.addHandler(capture.handler);
        return capture;
    }

    List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** The records whose text holds {@code value} anywhere: the message, its parameters or its stack trace. */
    List<LogRecord> holding(String value) {
        return records.stream().filter(logRecord -> text(logRecord).contains(value)).toList();
    }

    /** Everything a record could print, unformatted: its pattern, its parameters and its exception. */
    static String text(LogRecord logRecord) {
        StringWriter text = new StringWriter();
        text.append(logRecord.getLoggerName()).append(' ').append(String.valueOf(logRecord.getMessage()));
        if (logRecord.getParameters() != null) {
            text.append(' ').append(Arrays.deepToString(logRecord.getParameters()));
        }
        if (logRecord.getThrown() != null) {
            logRecord.getThrown().printStackTrace(new PrintWriter(text));
        }
        return text.toString();
    }

    @Override
    public void close() {
        root.removeHandler(handler);
    }
}
