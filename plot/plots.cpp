#include "plot/plots.h"

#include <vtkActor.h>
#include <vtkAxis.h>
#include <vtkCamera.h>
#include <vtkChartHistogram2D.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkColorLegend.h>
#include <vtkColorTransferFunction.h>
#include <vtkContextScene.h>
#include <vtkContextView.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPointData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTable.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>
#include <cmath>

#include "formats/atomic_file.h"
#include "formats/error.h"
#include "formats/vtk_poly_data.h"

namespace scree::post {

namespace {

// Distinct line colours (Okabe–Ito, readable by the colour-blind).
constexpr unsigned char palette[][3] = {{0, 114, 178}, {213, 94, 0},  {0, 158, 115}, {204, 121, 167},
                                        {230, 159, 0}, {86, 180, 233}, {0, 0, 0},     {240, 228, 66}};

void write_png(const std::filesystem::path& png, vtkRenderWindow* window) {
  window->SetOffScreenRendering(1);
  window->Render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
  grab->Update();
  formats::AtomicFile out(png);
  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(out.temp_path().c_str());
  writer->SetInputConnection(grab->GetOutputPort());
  writer->Write();
  if (writer->GetErrorCode() != 0 || !std::filesystem::exists(out.temp_path()))
    throw formats::FileError(png, "cannot write the PNG");
  out.commit();
}

void style_axis(vtkAxis* axis, const std::string& title) {
  axis->SetTitle(title);
  axis->GetTitleProperties()->SetFontSize(16);
  axis->GetLabelProperties()->SetFontSize(14);
}

void style_title(vtkChart* chart, const std::string& title) {
  chart->SetTitle(title);
  chart->GetTitleProperties()->SetFontSize(22);
  chart->GetTitleProperties()->BoldOn();
}

}  // namespace

void plot_lines(const std::filesystem::path& png, const LineChart& spec, ImageSize size) {
  formats::check_writable(png);
  vtkObject::GlobalWarningDisplayOff();
  vtkNew<vtkContextView> view;
  view->GetRenderer()->SetBackground(1, 1, 1);
  view->GetRenderWindow()->SetSize(size.width, size.height);
  vtkNew<vtkChartXY> chart;
  view->GetScene()->AddItem(chart);
  style_title(chart, spec.title);
  style_axis(chart->GetAxis(vtkAxis::BOTTOM), spec.x_label);
  style_axis(chart->GetAxis(vtkAxis::LEFT), spec.y_label);
  chart->SetShowLegend(spec.series.size() > 1);
  chart->GetLegend()->GetLabelProperties()->SetFontSize(15);
  if (spec.legend_bottom_right) chart->GetLegend()->SetVerticalAlignment(vtkChartLegend::BOTTOM);
  std::vector<vtkSmartPointer<vtkTable>> tables;
  for (std::size_t k = 0; k < spec.series.size(); ++k) {
    const Series& s = spec.series[k];
    auto table = vtkSmartPointer<vtkTable>::New();
    vtkNew<vtkDoubleArray> x, y;
    x->SetName(spec.x_label.c_str());
    y->SetName(s.name.c_str());
    for (std::size_t n = 0; n < std::min(s.x.size(), s.y.size()); ++n) x->InsertNextValue(s.x[n]), y->InsertNextValue(s.y[n]);
    table->AddColumn(x);
    table->AddColumn(y);
    tables.push_back(table);
    vtkPlot* line = chart->AddPlot(vtkChart::LINE);
    line->SetInputData(table, 0, 1);
    const auto& c = palette[k % std::size(palette)];
    line->SetColor(c[0], c[1], c[2], 255);
    line->SetWidth(2.5);
  }
  write_png(png, view->GetRenderWindow());
}

void plot_map(const std::filesystem::path& png, const MapImage& map, ImageSize size) {
  formats::check_writable(png);
  vtkObject::GlobalWarningDisplayOff();
  vtkNew<vtkImageData> image;
  image->SetExtent(0, int(map.nx) - 1, 0, int(map.ny) - 1, 0, 0);
  image->SetOrigin(map.x0, map.y0, 0);
  image->SetSpacing(map.cell, map.cell, 1);
  image->AllocateScalars(VTK_DOUBLE, 1);
  double top = 0;
  for (std::size_t k = 0; k < map.values.size(); ++k) {
    image->GetPointData()->GetScalars()->SetComponent(vtkIdType(k), 0, map.values[k]);
    top = std::max(top, map.values[k]);
  }
  if (!(top > 0)) top = 1;
  // White where there is nothing, then light yellow through orange to dark red.
  vtkNew<vtkColorTransferFunction> colours;
  colours->AddRGBPoint(0, 1, 1, 1);
  colours->AddRGBPoint(1e-6 * top, 1.0, 0.95, 0.6);
  colours->AddRGBPoint(0.35 * top, 0.99, 0.6, 0.2);
  colours->AddRGBPoint(0.7 * top, 0.85, 0.2, 0.1);
  colours->AddRGBPoint(top, 0.45, 0.0, 0.05);

  vtkNew<vtkContextView> view;
  view->GetRenderer()->SetBackground(1, 1, 1);
  // Keep the map's aspect: the chart takes about 230 pixels of the width (axis, legend) and 70
  // of the height (title, axis) for itself.
  const double aspect = double(map.ny) / double(std::max<std::size_t>(map.nx, 1));
  const int height = std::clamp(int(70 + (size.width - 230) * aspect), 300, 4 * size.width);
  view->GetRenderWindow()->SetSize(size.width, height);
  vtkNew<vtkChartHistogram2D> chart;
  view->GetScene()->AddItem(chart);
  chart->SetInputData(image);
  chart->SetTransferFunction(colours);
  style_title(chart, map.title);
  style_axis(chart->GetAxis(vtkAxis::BOTTOM), map.x_label);
  style_axis(chart->GetAxis(vtkAxis::LEFT), map.y_label);
  chart->SetShowLegend(true);
  if (auto* legend = vtkColorLegend::SafeDownCast(chart->GetLegend())) legend->SetTitle(map.value_label);
  write_png(png, view->GetRenderWindow());
}

void render_scene(const std::filesystem::path& png, const Scene& scene, ImageSize size) {
  formats::check_writable(png);
  vtkObject::GlobalWarningDisplayOff();
  vtkNew<vtkRenderer> renderer;
  renderer->SetBackground(0.93, 0.95, 0.98);
  renderer->SetBackground2(0.62, 0.72, 0.85);
  renderer->GradientBackgroundOn();
  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->AddRenderer(renderer);
  window->SetSize(size.width, size.height);

  std::vector<vtkSmartPointer<vtkObject>> keep;
  if (scene.ground) {
    vtkSmartPointer<vtkPolyData> ground = formats::to_poly_data(*scene.ground);
    vtkNew<vtkPolyDataNormals> normals;
    normals->SetInputData(ground);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(normals->GetOutputPort());
    double range[2] = {0, 1};
    if (auto* elevation = ground->GetPointData()->GetArray("elevation")) {
      elevation->GetRange(range);
      ground->GetPointData()->SetActiveScalars("elevation");
    }
    vtkNew<vtkColorTransferFunction> earth;  // green low, brown high, pale on top
    earth->AddRGBPoint(range[0], 0.45, 0.58, 0.36);
    earth->AddRGBPoint(0.5 * (range[0] + range[1]), 0.66, 0.6, 0.45);
    earth->AddRGBPoint(range[1], 0.86, 0.84, 0.8);
    mapper->SetLookupTable(earth);
    mapper->SetScalarRange(range);
    mapper->ScalarVisibilityOn();
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    renderer->AddActor(actor);
    keep.push_back(earth.Get());
  }
  vtkSmartPointer<vtkPolyData> grains = formats::to_poly_data(scene.grains);
  if (grains->GetPointData()->GetArray("speed")) grains->GetPointData()->SetActiveScalars("speed");
  vtkNew<vtkLookupTable> speeds;
  speeds->SetHueRange(0.667, 0.0);  // blue (at rest) to red (fastest)
  speeds->SetTableRange(0, scene.largest_speed > 0 ? scene.largest_speed : 1);
  speeds->Build();
  vtkNew<vtkPolyDataMapper> grain_mapper;
  grain_mapper->SetInputData(grains);
  grain_mapper->SetLookupTable(speeds);
  grain_mapper->UseLookupTableScalarRangeOn();
  grain_mapper->ScalarVisibilityOn();
  vtkNew<vtkActor> grain_actor;
  grain_actor->SetMapper(grain_mapper);
  renderer->AddActor(grain_actor);

  vtkNew<vtkScalarBarActor> bar;
  bar->SetLookupTable(speeds);
  bar->SetTitle("speed (m/s)");
  bar->SetNumberOfLabels(5);
  bar->SetMaximumWidthInPixels(110);
  bar->GetTitleTextProperty()->SetColor(0, 0, 0);
  bar->GetLabelTextProperty()->SetColor(0, 0, 0);
  renderer->AddActor2D(bar);
  vtkNew<vtkTextActor> caption;
  caption->SetInput(scene.caption.c_str());
  caption->GetTextProperty()->SetFontSize(24);
  caption->GetTextProperty()->SetColor(0, 0, 0);
  caption->SetDisplayPosition(20, size.height - 44);
  renderer->AddActor2D(caption);

  const auto& f = scene.focus;
  const double centre[3] = {0.5 * (f[0] + f[1]), 0.5 * (f[2] + f[3]), 0.5 * (f[4] + f[5])};
  const double diagonal = std::max(1e-3, std::hypot(f[1] - f[0], f[3] - f[2], f[5] - f[4]));
  const double view_angle = 30, distance = 0.6 * diagonal / std::tan(0.5 * view_angle * 3.14159265358979 / 180);
  const double elevation = 40 * 3.14159265358979 / 180, azimuth = 235 * 3.14159265358979 / 180;
  vtkCamera* camera = renderer->GetActiveCamera();
  camera->SetViewAngle(view_angle);
  camera->SetFocalPoint(centre);
  camera->SetPosition(centre[0] + distance * std::cos(elevation) * std::cos(azimuth),
                      centre[1] + distance * std::cos(elevation) * std::sin(azimuth),
                      centre[2] + distance * std::sin(elevation));
  camera->SetViewUp(0, 0, 1);
  renderer->ResetCameraClippingRange();
  write_png(png, window);
}

}  // namespace scree::post
