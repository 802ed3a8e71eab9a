package org.elasticam.report;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Structural checks of a rendered page, for the tests of every part that renders one (and anyone
 * checking a report by hand): each inline SVG parses as XML, and its bars can be counted by class.
 */
public final class ReportStructure {

  private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);

  private ReportStructure() {}

  /** Every inline SVG of the page, parsed; throws if one is not well-formed. */
  public static List<Document> svgs(String html) throws IOException {
    List<Document> out = new ArrayList<>();
    Matcher m = SVG.matcher(html);
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      while (m.find()) {
        out.add(f.newDocumentBuilder().parse(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.UTF_8))));
      }
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException("an inline SVG is not well-formed: " + e.getMessage(), e);
    }
    return out;
  }

  /** How many {@code <rect>}s of the SVG have class {@code cls}. */
  public static int rects(Document svg, String cls) {
    int n = 0;
    NodeList rects = svg.getElementsByTagName("rect");
    for (int i = 0; i < rects.getLength(); i++) {
      Node c = rects.item(i).getAttributes().getNamedItem("class");
      if (c != null && c.getNodeValue().equals(cls)) {
        n++;
      }
    }
    return n;
  }
}
