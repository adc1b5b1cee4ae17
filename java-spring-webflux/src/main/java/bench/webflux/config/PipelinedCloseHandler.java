package bench.webflux.config;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers pipelined requests up to and including the one that asks to close the connection, then
 * closes it (RFC 9112 9.3.2 and 9.6). Reactor Netty 1.3.8's {@code HttpTrafficHandler} keeps one
 * "persistent" flag per connection and sets it from the request it has just read, not from the
 * one it is answering: when a pipelined request with {@code Connection: close} is read while the
 * answer to an earlier one is still pending, that earlier answer goes out with
 * {@code Connection: close}, the connection is closed after it, and the requests between are
 * never answered (README.md, "Keep-alive"; measurements/pipelined-close.sh reproduces it with
 * plain Reactor Netty).
 * <p>
 * It sits between the HTTP codec and {@code HttpTrafficHandler}. Such a closing request is passed
 * on as a kept-alive one, so Reactor Netty answers the pipelined requests in order as it does
 * without the close; the close is made here, after the last part of that request's own answer,
 * and whatever the client sent after it is dropped unread, as the RFC asks. A closing request that
 * waits for no earlier answer is passed on as it is: Reactor Netty closes after it correctly.
 * One instance per connection; Netty calls it on the connection's event loop only.
 */
final class PipelinedCloseHandler extends ChannelDuplexHandler {

	/** Requests read on this connection so far. */
	private long requestsRead;

	/** Answers whose last part has been written. */
	private long answersWritten;

	/** The number of the pipelined request that asked to close, or 0 while none did. */
	private long closingRequest;

	/** Whether the closing request has been read to its end: anything after it is dropped. */
	private boolean closingRequestRead;

	/** Whether an answer (not a 1xx) has started and its last part is still to be written. */
	private boolean answering;

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (this.closingRequestRead) {
			ReferenceCountUtil.release(msg);
			return;
		}
		if (msg instanceof HttpRequest request) {
			this.requestsRead++;
			if (!HttpUtil.isKeepAlive(request) && this.requestsRead - this.answersWritten > 1) {
				this.closingRequest = this.requestsRead;
				HttpUtil.setKeepAlive(request, true);
			}
		}
		if (this.closingRequest != 0 && msg instanceof LastHttpContent) {
			this.closingRequestRead = true;
		}
		ctx.fireChannelRead(msg);
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (msg instanceof HttpResponse response && response.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
			this.answering = true;
			if (this.closingRequest == this.answersWritten + 1) {
				HttpUtil.setKeepAlive(response, false);
			}
		}
		if (this.answering && msg instanceof LastHttpContent) {
			this.answering = false;
			this.answersWritten++;
			if (this.answersWritten == this.closingRequest) {
				ctx.write(msg, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
				return;
			}
		}
		ctx.write(msg, promise);
	}

}
