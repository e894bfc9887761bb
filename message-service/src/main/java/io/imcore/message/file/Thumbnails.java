package io.imcore.message.file;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Thumbnails of JPEG and PNG images with the JDK's ImageIO. The image is decoded subsampled close to the thumbnail's
 * size, so a large photo never needs its full raster in memory.
 */
final class Thumbnails {

    /** The image's dimensions, and its thumbnail when one could be made. */
    record Result(int width, int height, Optional<byte[]> thumbnail) {}

    private Thumbnails() {
    }

    static boolean supports(String contentType) {
        return contentType.equals("image/jpeg") || contentType.equals("image/png");
    }

    /** The thumbnail's type: PNG keeps a PNG's transparency, JPEG is smaller for photos. */
    static String thumbnailType(String contentType) {
        return contentType.equals("image/png") ? "image/png" : "image/jpeg";
    }

    /**
     * Reads the image's header and, when it has at most {@code maxPixels} pixels, a thumbnail fitting in a square of
     * {@code side} pixels. Empty when the bytes do not decode (a file whose signature lies about the rest).
     */
    static Optional<Result> of(InputStream bytes, String contentType, int side, long maxPixels) throws IOException {
        ImageIO.setUseCache(false); // cache the compressed stream in memory, not in a temp file
        try (ImageInputStream input = ImageIO.createImageInputStream(bytes)) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(input);
            if (!readers.hasNext()) {
                return Optional.empty();
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(input, true, true);
                int width = reader.getWidth(0);
                int height = reader.getHeight(0);
                if ((long) width * height > maxPixels) {
                    return Optional.of(new Result(width, height, Optional.empty()));
                }
                ImageReadParam param = reader.getDefaultReadParam();
                int step = Math.max(1, Math.max(width, height) / (side * 2));
                param.setSourceSubsampling(step, step, 0, 0);
                BufferedImage decoded = reader.read(0, param);
                return Optional.of(new Result(width, height, Optional.of(encode(scale(decoded, side),
                        thumbnailType(contentType)))));
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            // ImageIO throws IIOException and, for some corrupt files, unchecked exceptions
            return Optional.empty();
        }
    }

    private static BufferedImage scale(BufferedImage image, int side) {
        double factor = Math.min(1.0, (double) side / Math.max(image.getWidth(), image.getHeight()));
        int w = Math.max(1, (int) Math.round(image.getWidth() * factor));
        int h = Math.max(1, (int) Math.round(image.getHeight() * factor));
        boolean alpha = image.getColorModel().hasAlpha();
        BufferedImage scaled = new BufferedImage(w, h, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        Graphics2D g = scaled.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(image, 0, 0, w, h, null);
        } finally {
            g.dispose();
        }
        return scaled;
    }

    private static byte[] encode(BufferedImage image, String contentType) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String format = contentType.equals("image/png") ? "png" : "jpg";
        BufferedImage writable = image;
        if (format.equals("jpg") && image.getColorModel().hasAlpha()) {
            writable = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            writable.getGraphics().drawImage(image, 0, 0, null);
        }
        if (!ImageIO.write(writable, format, out)) {
            throw new IOException("no ImageIO writer for " + format);
        }
        return out.toByteArray();
    }
}
