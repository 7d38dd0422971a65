// Chapter 9: the chapters resource and its two representations.
#include "chapter_catalog.hpp"

#include "rdv/test/book.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <pugixml.hpp>

namespace {

using namespace rdv::rest;
using rdv::test::explained_in;

TEST(Catalog, HoldsTheCourseChaptersInOrder) {
  explained_in("ch09-representations");
  const chapter_catalog catalog;
  ASSERT_EQ(catalog.all().size(), 11u);
  EXPECT_EQ(catalog.all().front().number, "00");
  ASSERT_NE(catalog.find("03"), nullptr);
  EXPECT_EQ(catalog.find("03")->title, "Processes");
  EXPECT_EQ(catalog.find("11"), nullptr);
}

TEST(Catalog, RepresentsOneChapterAsJsonAndXml) {
  explained_in("ch09-representations");
  const chapter c{"03", R"(Processes <&> "quoted")", "doing"};
  const auto json = boost::json::parse(to_json(c)).as_object();
  EXPECT_EQ(json.at("title").as_string(), c.title);
  EXPECT_EQ(json.at("status").as_string(), "doing");
  EXPECT_EQ(json.at("href").as_string(), "/chapters/03");
  pugi::xml_document xml;
  const std::string text = to_xml(c);
  ASSERT_TRUE(xml.load_string(text.c_str())) << text;
  EXPECT_STREQ(xml.child("chapter").attribute("number").value(), "03");
  EXPECT_EQ(std::string(xml.child("chapter").child("title").text().get()), c.title) << text;
  EXPECT_EQ(text.find("<&>"), std::string::npos) << "markup in a title must be escaped:\n" << text;
}

TEST(Catalog, RepresentsTheCollectionWithLinks) {
  explained_in("ch09-representations");
  const chapter_catalog catalog;
  const auto json = boost::json::parse(to_json(catalog.all())).as_object();
  EXPECT_EQ(json.at("chapters").as_array().size(), 11u);
  EXPECT_EQ(json.at("chapters").as_array()[1].as_object().at("href").as_string(), "/chapters/01");
  pugi::xml_document xml;
  ASSERT_TRUE(xml.load_string(to_xml(catalog.all()).c_str()));
  EXPECT_EQ(std::distance(xml.child("chapters").children("chapter").begin(),
                          xml.child("chapters").children("chapter").end()),
            11);
}

TEST(Catalog, ReadsAStatusFromEitherRepresentation) {
  explained_in("ch09-put");
  EXPECT_EQ(status_from_json(R"({"status":"done"})"), "done");
  EXPECT_EQ(status_from_xml("<chapter><status>doing</status></chapter>"), "doing");
  EXPECT_EQ(status_from_json(R"({"status":"finished"})"), std::nullopt);
  EXPECT_EQ(status_from_json("{not json"), std::nullopt);
  EXPECT_EQ(status_from_json(R"(["done"])"), std::nullopt);
  EXPECT_EQ(status_from_xml("<chapter><status>done</chapter>"), std::nullopt);
  chapter_catalog catalog;
  EXPECT_TRUE(catalog.set_status("05", "done"));
  EXPECT_EQ(catalog.find("05")->status, "done");
  EXPECT_FALSE(catalog.set_status("42", "done"));
}

}  // namespace
