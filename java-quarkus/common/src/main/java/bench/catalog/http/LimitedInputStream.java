package bench.catalog.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A body read up to a limit: one byte more fails the read with {@link BodyTooLargeException}. */
final class LimitedInputStream extends FilterInputStream {

    private long remaining;

    LimitedInputStream(InputStream body, long limit) {
        super(body);
        this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
        int read = super.read();
        if (read >= 0) {
            count(1);
        }
        return read;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read > 0) {
            count(read);
        }
        return read;
    }

    private void count(int bytes) {
        remaining -= bytes;
        if (remaining < 0) {
            throw new BodyTooLargeException();
        }
    }
}
