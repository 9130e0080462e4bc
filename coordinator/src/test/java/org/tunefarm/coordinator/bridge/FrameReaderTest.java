package org.tunefarm.coordinator.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FrameReaderTest {

    private static Buffer frame(String s) {
        return Buffer.buffer(RawBridge.frame(s));
    }

    @Test void framesSplitAcrossChunksComeOutWhole() {
        Buffer all = Buffer.buffer().appendBuffer(frame("{\"a\":1}")).appendBuffer(frame("{\"b\":2}")).appendBuffer(frame("{\"c\":3}"));
        SplittableRandom r = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            FrameReader reader = new FrameReader(1024);
            int pos = 0;
            StringBuilder seen = new StringBuilder();
            while (pos < all.length()) {
                int n = Math.min(all.length() - pos, 1 + r.nextInt(9));
                FrameReader.Result res = reader.feed(all.getBuffer(pos, pos + n));
                assertNull(res.fault());
                res.frames().forEach(f -> seen.append(f.toString()));
                pos += n;
            }
            assertEquals("{\"a\":1}{\"b\":2}{\"c\":3}", seen.toString());
            assertFalse(reader.pending());
        }
    }

    @Test void aLengthPrefixThatLiesIsRefusedBeforeAnyBodyIsBuffered() {
        FrameReader reader = new FrameReader(1 << 20);
        FrameReader.Result r = reader.feed(Buffer.buffer().appendInt(Integer.MAX_VALUE));
        assertNotNull(r.fault());
        assertTrue(r.fault().contains("2147483647"), r.fault());
        assertFalse(reader.pending(), "nothing kept");
        assertNotNull(reader.feed(frame("{}")).fault(), "a faulted stream stays faulted");
    }

    @Test void negativeZeroAndOversizedLengthsAreFaults() {
        for (int len : new int[] {-1, 0, (1 << 20) + 1, 0x80000000}) {
            assertNotNull(new FrameReader(1 << 20).feed(Buffer.buffer().appendInt(len)).fault(), "length " + len);
        }
        assertNull(new FrameReader(1 << 20).feed(Buffer.buffer().appendInt(1 << 20)).fault(), "exactly the limit is fine");
    }

    @Test void framesBeforeAFaultAreStillDelivered() {
        Buffer b = Buffer.buffer().appendBuffer(frame("{}")).appendInt(-5);
        FrameReader.Result r = new FrameReader(1024).feed(b);
        assertEquals(1, r.frames().size());
        assertNotNull(r.fault());
    }

    @Test void aPartialFrameIsPending() {
        FrameReader reader = new FrameReader(1024);
        reader.feed(Buffer.buffer().appendInt(10).appendString("{\"a\""));
        assertTrue(reader.pending());
    }
}
