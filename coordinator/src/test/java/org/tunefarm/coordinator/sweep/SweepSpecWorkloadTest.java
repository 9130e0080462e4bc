package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sweeps that name a catalog workload instead of listing shapes. */
class SweepSpecWorkloadTest {

    @Test void aWorkloadExpandsToItsLayerShapesOfTheKernel() {
        SweepSpec s = SweepSpecReader.read("""
                workload: mobilenetv2-224
                kernel: depthwise_conv2d
                strategy: {name: random, budget: 8}
                """);
        assertEquals("mobilenetv2-224-depthwise_conv2d", s.name());
        assertEquals(10, s.shapes().size());
        assertEquals(Map.of("N", 1, "C", 32, "H", 112, "W", 112, "R", 3, "S", 3, "stride", 1, "pad", 1), s.shapes().get(0));
    }

    @Test void layersSelectByName() {
        SweepSpec s = SweepSpecReader.read("""
                {"workload": "mobilenetv2-224", "kernel": "conv2d", "layers": ["conv1", "block2-expand"]}
                """);
        assertEquals(List.of(
                Map.of("N", 1, "C", 3, "H", 224, "W", 224, "K", 32, "R", 3, "S", 3, "stride", 2, "pad", 1, "dilation", 1),
                Map.of("N", 1, "C", 16, "H", 112, "W", 112, "K", 96, "R", 1, "S", 1, "stride", 1, "pad", 0, "dilation", 1)), s.shapes());
    }

    @Test void aSingleKernelWorkloadNeedsNoKernel() {
        SweepSpec s = SweepSpecReader.read("workload: transformer-block-b1\n");
        assertEquals("gemm", s.kernel());
        assertEquals(List.of(Map.of("M", 1, "N", 768, "K", 768), Map.of("M", 1, "N", 3072, "K", 768), Map.of("M", 1, "N", 768, "K", 3072)), s.shapes());
    }

    @Test void unknownWorkloadListsTheKnownOnes() {
        SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read("workload: vgg16\nkernel: conv2d\n"));
        assertEquals("workload", e.field());
        assertTrue(e.getMessage().contains("mobilenetv2-224") && e.getMessage().contains("resnet18-224"), e.getMessage());
    }

    @Test void mistakesNameTheirField() {
        assertField("kernel", "workload: mobilenetv2-224\n");
        assertField("kernel", "workload: transformer-block-b1\nkernel: conv2d\n");
        assertField("layers[1]", "workload: mobilenetv2-224\nkernel: conv2d\nlayers: [conv1, nope]\n");
        assertField("layers[0]", "workload: mobilenetv2-224\nkernel: conv2d\nlayers: [block1-dw]\n");
        assertField("workload", "workload: camera-720p\nkernel: conv2d\nshapes: [{N: 1}]\n");
        assertField("layers", "kernel: conv2d\nlayers: [conv1]\nshapes: [{N: 1}]\n");
    }

    @Test void aNarrowedSpaceIsCheckedAgainstEveryLayer() {
        // Winograd fits no layer of the camera workload (3x3 at stride 2).
        assertField("space", "workload: camera-720p\nspace: {algo: [winograd]}\n");
        SweepSpec s = SweepSpecReader.read("workload: resnet18-224\nkernel: conv2d\nlayers: [layer1-conv]\nspace: {algo: [winograd]}\n");
        assertEquals(1, s.shapes().size());
    }

    private static void assertField(String field, String yaml) {
        SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read(yaml));
        assertEquals(field, e.field(), e.getMessage());
    }
}
