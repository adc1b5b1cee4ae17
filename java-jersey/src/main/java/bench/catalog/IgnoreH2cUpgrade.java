package bench.catalog;

import java.io.IOException;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.FilterChainEvent;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpEvents;
import org.glassfish.grizzly.http.HttpHeader;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.server.AddOn;
import org.glassfish.grizzly.http.server.NetworkListener;

/**
 * Declines HTTP/2 cleartext upgrade offers ({@code Upgrade: h2c}, sent by the JDK's HttpClient
 * and {@code curl --http2}), as RFC 9110 lets a server do. Without its HTTP/2 add-on, Grizzly
 * takes the offer for an accepted upgrade: it drops Content-Type from the answer and never ends
 * the request body, so a POST times out (glassfish-grizzly issues 1972 and 2192). Handling the
 * upgrade event right after the HTTP codec turns the request back into plain HTTP/1.1.
 */
final class IgnoreH2cUpgrade extends BaseFilter implements AddOn {

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        builder.add(builder.indexOfType(HttpServerFilter.class) + 1, this);
    }

    @Override
    public NextAction handleEvent(FilterChainContext ctx, FilterChainEvent event) throws IOException {
        if (event instanceof HttpEvents.IncomingHttpUpgradeEvent upgrade) {
            HttpHeader request = upgrade.getHttpHeader();
            if ("h2c".equalsIgnoreCase(request.getUpgrade())) {
                request.getUpgradeDC().recycle();
                request.setIgnoreContentModifiers(false);
                return ctx.getStopAction();
            }
        }
        return ctx.getInvokeAction();
    }
}
