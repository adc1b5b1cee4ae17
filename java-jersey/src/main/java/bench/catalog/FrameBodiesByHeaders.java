package bench.catalog;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.http.ContentEncoding;
import org.glassfish.grizzly.http.HttpHeader;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.KeepAlive;
import org.glassfish.grizzly.http.server.AddOn;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.utils.DelayedExecutor;

/**
 * Makes Grizzly's HTTP codec tell whether a request has a body from its framing headers alone
 * ({@code Content-Length} greater than 0, or {@code Transfer-Encoding: chunked}), whatever the
 * method, as RFC 9112 section 6 has it.
 *
 * <p>Grizzly decides by method: it never reads a body on a {@code TRACE}, and always expects one
 * on {@code CONNECT} and {@code PRI}. On a kept-alive connection the first leaves the body
 * unread, to be parsed as the next request line ({@code {"code": …}QUERY /categories HTTP/1.1}),
 * which Grizzly answers with a bare 505 and a closed connection; the second takes the next
 * request for a body, which then gets no answer. With the framing fixed these requests reach
 * Jersey like any other method it does not serve (405 with {@code Allow}, or 404), and the
 * connection stays in step.
 *
 * <p>The codec is Grizzly's own filter with one hook overridden, built from the same settings
 * {@code HttpServer} used for the one it replaces; it stays at the same place in the chain.
 */
final class FrameBodiesByHeaders implements AddOn {

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        int index = builder.indexOfType(HttpServerFilter.class);
        HttpServerFilter original = (HttpServerFilter) builder.get(index);
        if (original instanceof Codec) {
            return;
        }
        int maxHeaderSize = listener.getMaxHttpHeaderSize() == -1
                ? HttpServerFilter.DEFAULT_MAX_HTTP_PACKET_HEADER_SIZE : listener.getMaxHttpHeaderSize();
        Codec codec = new Codec(listener.isChunkingEnabled(), maxHeaderSize, original.getDefaultResponseContentType(),
                listener.getKeepAlive(), listener.getMaxRequestHeaders(), listener.getMaxResponseHeaders());
        for (ContentEncoding encoding : original.getContentEncodings()) {
            codec.addContentEncoding(encoding);
        }
        codec.setAllowPayloadForUndefinedHttpMethods(original.isAllowPayloadForUndefinedHttpMethods());
        codec.setMaxPayloadRemainderToSkip(original.getMaxPayloadRemainderToSkip());
        codec.setRemoveHandledContentEncodingHeaders(original.isRemoveHandledContentEncodingHeaders());
        codec.setPreserveHeaderCase(original.isPreserveHeaderCase());
        codec.getMonitoringConfig().addProbes(original.getMonitoringConfig().getProbes());
        builder.set(index, codec);
    }

    /** Grizzly's server codec, with the body decision taken from the headers once they are checked. */
    static final class Codec extends HttpServerFilter {

        @SuppressWarnings("deprecation") // the constructor HttpServer itself uses
        Codec(boolean chunkingEnabled, int maxHeadersSize, String defaultResponseContentType, KeepAlive keepAlive,
              int maxRequestHeaders, int maxResponseHeaders) {
            // No delayed executor, as in HttpServer: its IdleTimeoutFilter handles idle connections.
            super(chunkingEnabled, maxHeadersSize, defaultResponseContentType, keepAlive, (DelayedExecutor) null,
                    maxRequestHeaders, maxResponseHeaders);
        }

        @Override
        protected boolean onHttpHeaderParsed(HttpHeader header, Buffer buffer, FilterChainContext ctx) {
            boolean error = super.onHttpHeaderParsed(header, buffer, ctx);
            // An erroneous request is answered and closed by Grizzly; an accepted upgrade passes
            // its bytes through untouched.
            if (!error && !header.isIgnoreContentModifiers()) {
                header.setExpectContent(header.getContentLength() > 0 || header.isChunked());
            }
            return error;
        }
    }
}
